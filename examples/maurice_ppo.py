#!/usr/bin/env python3
"""Masked PPO for Maurice Lite on `maquis.maurice.MauriceVectorEnv` (CleanRL style): the learner lives
in the package, `maquis.maurice.train.ppo` (its docstring says what it does), so that
`maquis maurice train --recipe shipped` runs it too; this script is its command line.

    pip install . torch matplotlib
    python examples/maurice_ppo.py --minutes 20 --out runs/maurice_ppo                 # on the CPU
    python examples/maurice_ppo.py --minutes 5 --device cuda --num-envs 512 --out runs/maurice_ppo
    python examples/maurice_ppo.py --resume runs/maurice_ppo/checkpoint.pt --minutes 10 --out runs/maurice_ppo
    python examples/maurice_ppo.py --minutes 13 --imitate heuristic --out runs/maurice_ppo_warm    # warm-started
    python examples/maurice_ppo.py --model network --side both --reward outcome --minutes 30 --out runs/maurice_net_ppo
    python examples/maurice_ppo.py --model network --side both --shaping advance=3 --opponent random \\
        --train-opponents heuristic,random --reward outcome --minutes 45 --out runs/maurice_shaped
"""

import sys

from maquis.maurice.train.ppo import main

if __name__ == "__main__":
    sys.exit(main())
