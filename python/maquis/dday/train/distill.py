"""A distillation generation of `maquis dday train` (`--distill SIDE=POLICY`, once per side): each
named side's moves learned from a saved policy (e.g. a PPO learner that beats the search from that
seat, `examples/dday_ppo.py`), a side not named keeps the moves of the network the run starts
from (`--init`), so that one network holds both.

Each teacher plays its own side, its moves drawn from its distribution over the legal actions,
against each of `--distill-opponents` (bundled levels; `network` is the starting network) in
`DDayVectorEnv` games; every decision with more than one legal action becomes a sample whose
policy target is the teacher's whole distribution there (a soft target: the student learns which
moves the teacher mixes, not only its favourite) and whose value target is that game's result for
the side (win 1, draw ½, loss 0). The vector env of side `s` against opponent `k` is seeded
`seed * 1,000,003 + 1000 * k + (0 for the German, 500 for the Resistance)` (the training games'
seeds, never the evaluation deals) and the moves are drawn from one generator seeded by `--seed`,
so a run makes the same samples again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from maquis.common.policy import masked_probabilities, sample_rows

SIDES = ("german", "resistance")
# DDayVectorEnv games stepped together while collecting.
ENVS = 100


def parse_distill(texts: str | list[str]) -> dict[str, Path]:
    """The `SIDE=POLICY` values of `--distill` (one or a list) as {side: policy file}, checked: each
    a side, at most once, and an existing policy file (a ValueError saying what is wrong)."""
    out: dict[str, Path] = {}
    for text in [texts] if isinstance(texts, str) else texts:
        side, sep, path = text.partition("=")
        if not sep or side not in SIDES:
            raise ValueError(f"--distill takes SIDE=POLICY with SIDE one of {', '.join(SIDES)}, got {text!r}")
        if side in out:
            raise ValueError(f"--distill: the {side} is given twice")
        if not Path(path).is_file():
            raise ValueError(f"--distill: no policy file {path!r}")
        out[side] = Path(path)
    return out


def teacher_of(side: str, distill: dict[str, Path], model: Any) -> Any:
    """`logits(obs) -> (n, NUM_ACTIONS)` of the side's teacher: its policy file where `distill`
    names one, else the (frozen) starting network."""
    import copy

    import torch

    from maquis.dday.policy import load_policy

    if side in distill:
        policy = load_policy(distill[side])
        return lambda obs: np.asarray(policy.logits(obs), np.float32)
    frozen = copy.deepcopy(model).eval()

    def logits(obs: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            return frozen(torch.from_numpy(obs))[0].numpy()

    return logits


def collect(side: str, opponent: str, games: int, seed: int, teacher: Any, rng: np.random.Generator,
            threads: int) -> dict[str, list[Any]]:
    """`games` games of the teacher as `side` against `opponent`: its decisions with a choice, with
    the teacher's distribution and the game's result for the side, and each game's winner as
    `selfplay` counts them (0 draw, 1 the Resistance, 2 the German)."""
    import maquis.dday as dday

    env = dday.DDayVectorEnv(num_envs=ENVS, num_threads=threads, side=side, opponent=opponent)
    obs, info = env.reset(seed=seed)
    moves: list[list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = [[] for _ in range(ENVS)]
    out: dict[str, list[Any]] = {"obs": [], "masks": [], "policy": [], "outcome": [], "game_outcomes": []}
    winner = {1.0: 1 if side == "resistance" else 2, 0.0: 2 if side == "resistance" else 1, 0.5: 0}
    finished = 0
    resetting = np.zeros(ENVS, bool)  # the env's next step is its autoreset: no decision
    while finished < games:
        masks = info["action_mask"].astype(bool)
        live = ~resetting
        safe = np.where(live[:, None], masks, True)
        probs = masked_probabilities(teacher(obs.astype(np.float32)), safe).astype(np.float32)
        actions = sample_rows(probs, rng)
        for i in np.flatnonzero(live & (masks.sum(axis=1) > 1)):
            moves[i].append((obs[i].astype(np.float32), masks[i], probs[i]))
        obs, reward, term, trunc, info = env.step(actions)
        ended = (term | trunc) & ~resetting
        for i in np.flatnonzero(ended):
            if finished < games:
                result = 1.0 if reward[i] > 0 else 0.0 if reward[i] < 0 else 0.5
                for o, m, p in moves[i]:
                    out["obs"].append(o)
                    out["masks"].append(m)
                    out["policy"].append(p)
                    out["outcome"].append(result)
                out["game_outcomes"].append(winner[result])
                finished += 1
            moves[i] = []
        resetting = term | trunc
    env.close()
    return out


def play(args: Any, model: Any, log: Any = print) -> dict[str, np.ndarray]:
    """The distillation generation's samples: `--distill-games` games a side, shared out over the
    opponents."""
    distill = parse_distill(args.distill)
    opponents = [o.strip() for o in args.distill_opponents.split(",") if o.strip()]
    rng = np.random.default_rng(args.seed)
    parts: dict[str, list[Any]] = {"obs": [], "masks": [], "policy": [], "outcome": [], "game_outcomes": []}
    for side in SIDES:
        teacher = teacher_of(side, distill, model)
        for k, opponent in enumerate(opponents):
            games = args.distill_games // len(opponents) + (k < args.distill_games % len(opponents))
            seed = args.seed * 1_000_003 + 1000 * k + (0 if side == "german" else 500)
            got = collect(side, opponent, games, seed, teacher, rng, args.threads)
            for key in parts:
                parts[key] += got[key]
            won = np.mean(np.array(got["game_outcomes"]) == (1 if side == "resistance" else 2))
            log(f"distillation: {side} ({'policy' if side in distill else 'network'}) against {opponent}: "
                f"{games} games, {len(got['obs'])} samples, {100 * won:.1f} % won")
    n = len(parts["obs"])
    return {"obs": np.array(parts["obs"], np.float32).reshape(n, -1), "masks": np.array(parts["masks"], bool),
            "policy": np.array(parts["policy"], np.float32), "outcome": np.array(parts["outcome"], np.float32),
            "weight": np.ones(n, np.float32), "game_outcomes": np.array(parts["game_outcomes"], np.int64)}


__all__ = ["parse_distill", "play", "collect", "SIDES"]
