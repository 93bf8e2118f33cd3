"""Adapters to the conventions of other libraries, each in its own module and imported only when
asked for (``import maquis`` loads none of them, nor the library they adapt to):

| module | for |
|---|---|
| ``maquis.integrations.rllib`` | Ray RLlib (new API stack): env creators, a ``MultiAgentEnv`` for the two-player games, per-env seeding, the action-masking keys |
"""
