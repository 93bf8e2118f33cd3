//! `maquis._core.dday.play_games`: whole games between bundled agents on threads, the engine of
//! `maquis dday ladder` and of the training's gate (the shared `ladder_function!`; its agents may
//! be `network@FILE` / `network_search@FILE`).

ladder_function!(crate::dday::env::DDay1944, networks, budget = 200);
