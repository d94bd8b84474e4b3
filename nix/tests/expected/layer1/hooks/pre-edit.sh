#!/bin/sh
echo edit
