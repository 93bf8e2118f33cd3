//! `maquis._core.maurice.play_games`: whole games between bundled agents on threads, the engine of
//! `maquis maurice ladder` and of the training's gate (the shared `ladder_function!`; its agents may
//! be `network@FILE` / `network_search@FILE`).

ladder_function!(crate::maurice::env::MauriceLite, networks, budget = 100);
