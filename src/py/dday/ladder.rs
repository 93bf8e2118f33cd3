//! `maquis._core.dday.play_games`: whole games between bundled agents on threads, the engine of
//! `maquis dday ladder` (the shared `ladder_function!`).

ladder_function!(crate::dday::env::DDay1944, budget = 200);
