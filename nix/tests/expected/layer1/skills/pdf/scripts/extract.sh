#!/bin/sh
exec pdftotext "$1" -
