//! `game_classes!`: a game's `Env` and `VecEngine` classes from one list of its constructor
//! keywords (with their defaults) and the configuration they make, so that the two constructors
//! cannot drift apart. The classes' own methods come with them (`env_class!`,
//! `vec_engine_class!`).

/// Makes `$env` (`Env`: the keywords alone, all keyword-only) and `$vec` (`VecEngine`: `num_envs`,
/// `num_threads`, `autoreset_mode`, then the keywords) of `$game`. `$config` makes the
/// configuration from the keywords; `$external` is true for the single environment (whose
/// opponent, in a game with one, may be played from outside).
macro_rules! game_classes {
    (
        game: $game:ty,
        keywords: ($($kw:ident: $ty:ty = $default:tt),* $(,)?),
        config: |$external:ident| $config:expr,
        $(#[$env_meta:meta])*
        env $env:ident {
            $(#[$new_meta:meta])*
            new;
            $($env_extra:tt)*
        }
        $(#[$vec_meta:meta])*
        vector $vec:ident {
            $($vec_extra:tt)*
        }
    ) => {
        env_class! {
            $(#[$env_meta])*
            $env, $game, {
                $(#[$new_meta])*
                #[new]
                #[pyo3(signature = (*, $($kw = $default),*))]
                #[allow(clippy::too_many_arguments)]
                fn new($($kw: $ty),*) -> pyo3::PyResult<Self> {
                    let $external = true;
                    Ok($env { core: $crate::py::common::env::EnvCore::new($config?) })
                }
                $($env_extra)*
            }
        }

        vec_engine_class! {
            $(#[$vec_meta])*
            $vec, $game, {
                /// Create `num_envs` environments (they need a reset before the first step).
                ///
                /// Args:
                ///     num_envs: the number of environments (at least 1).
                ///     num_threads: worker threads (0: one per core; capped at num_envs). The pool is
                ///         created here and kept.
                ///     autoreset_mode: "next_step", "same_step" or "disabled".
                ///     The other keywords: as for `Env`.
                ///
                /// Raises:
                ///     MaquisError: an unknown id, a bad value, or num_envs 0.
                #[new]
                #[pyo3(signature = (num_envs, num_threads=0, autoreset_mode="next_step", *, $($kw = $default),*))]
                #[allow(clippy::too_many_arguments)]
                fn new(
                    py: pyo3::Python<'_>,
                    num_envs: usize,
                    num_threads: usize,
                    autoreset_mode: &str,
                    $($kw: $ty),*
                ) -> pyo3::PyResult<Self> {
                    let $external = false;
                    let cfg = $config?;
                    Ok($vec { core: $crate::py::common::vector::VecCore::new(py, cfg, num_envs, num_threads, autoreset_mode)? })
                }
                $($vec_extra)*
            }
        }
    };
}
