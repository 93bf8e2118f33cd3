//! `maquis._core.maurice.play_games`: whole games between bundled agents on threads, the engine of
//! `maquis maurice ladder` (the shared `ladder_function!`).

ladder_function!(crate::maurice::env::MauriceLite, budget = 100);
