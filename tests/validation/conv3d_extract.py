#!/usr/bin/env python3
"""Extract xwang233's cuDNN Conv3d timings (xwang233/code-snippet,
conv3d-channels-last/{a100,v100}/res-c8cd883.json) into one CSV on stdout.

Standard library only. Usage:

    python3 conv3d_extract.py a100/res-c8cd883.json v100/res-c8cd883.json > conv3d-a100-v100-fp16.csv

Each JSON holds the device, the cuDNN version and, per shape key
"(n, c, dhw, oc, ks, pad, stride)", four times in milliseconds per call
(contiguous and channels-last-3d, forward and backward). One row is written
per shape and layout; values are copied verbatim.
"""
import json
import sys

print("gpu,cudnn,n,c,dhw,oc,ks,pad,stride,layout,forward_ms,backward_ms")
for path in sys.argv[1:]:
    with open(path) as f:
        j = json.load(f)
    for key, times in j.items():
        if not key.startswith("("):
            continue
        n, c, dhw, oc, ks, pad, stride = (int(v) for v in key.strip("()").split(","))
        for layout, prefix in (("ncdhw", "contiguous"), ("ndhwc", "channels-last-3d")):
            print(
                f"{j['device']},{j['cudnn-ver']},{n},{c},{dhw},{oc},{ks},{pad},{stride},{layout},"
                f"{times[prefix + '-forward']!r},{times[prefix + '-backward']!r}"
            )
