#!/usr/bin/python3
"""Runs a command and records its peak resident memory.

    maxrss.py OUT COMMAND [ARGS...]

Standard streams pass through; the peak RSS in KiB (getrusage of the waited
child) goes to the file OUT; the exit status is the command's (128+N when
killed by signal N).
"""
import resource
import subprocess
import sys

result = subprocess.run(sys.argv[2:])
with open(sys.argv[1], "w") as f:
    f.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(result.returncode if result.returncode >= 0 else 128 - result.returncode)
