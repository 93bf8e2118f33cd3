//! `maquis._core.kuhn.play_games`: whole hands between bundled agents on threads (the shared
//! `ladder_function!`), for a `maquis kuhn ladder`.

ladder_function!(crate::kuhn::env::KuhnPoker, budget = 1);
