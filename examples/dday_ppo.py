#!/usr/bin/env python3
"""Masked PPO for D-Day 1944 on `maquis.dday.DDayVectorEnv` (CleanRL style): the learner lives in
the package, `maquis.dday.train.ppo` (its docstring says what it does), so that
`maquis dday train --recipe shipped` runs it too; this script is its command line.

    pip install . torch matplotlib
    python examples/dday_ppo.py --minutes 20 --out runs/dday_ppo          # the Resistance vs the heuristic German
    python -m maquis dday eval --policy runs/dday_ppo/policy.npz --side resistance --opponents heuristic --episodes 1000
    python examples/dday_ppo.py --resume runs/dday_ppo/checkpoint.pt --minutes 30 --out runs/dday_ppo   # to 30 minutes in all
"""

import sys

from maquis.dday.train.ppo import main

if __name__ == "__main__":
    sys.exit(main())
