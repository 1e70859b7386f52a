#!/usr/bin/env python3
"""The peer beside εMAg-ES on bbob-constrained: pycma's augmented-Lagrangian CMA-ES
(`cma.fmin_con2`, default settings) through cocoex, writing COCO's files — the
`--solver al-cma-es` of `peers.py` beside it (which says how it runs), kept under its
old name for the commands in docs/bbob-constrained.md:

    pip install coco-experiment cma
    python3 scripts/bbob-constrained/alcmaes.py --dims 2,3,5,10,20 --instances 1-5 \
        --out results/bbob-constrained/alcmaes [--batch 1/4]
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402

if __name__ == "__main__":
    sys.argv[1:1] = ["--solver", "al-cma-es"]
    sys.exit(peers.main())
