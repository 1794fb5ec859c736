#!/bin/bash
# Why 4: msprof profiling an application that is not a Python script
cd "$(dirname "$0")"
msprof --output=/tmp/msprof_out --application=./benchmark
