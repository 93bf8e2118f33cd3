//! The environment contract (`maquis::env::conformance`, `maquis::vector::conformance`) run for
//! every game: one module a game, each one `env_conformance_tests!` with the game's own
//! configuration, reset-option parser and bad inputs.

use maquis::env::IllegalPolicy;
use serde_json::json;

mod maquis_game {
    use super::*;
    use maquis::maquis::{EnvConfig, Maquis, ResetOptions, Rewards, Setup};

    maquis::env_conformance_tests! {
        game: Maquis,
        config: EnvConfig::new(Setup::default(), Rewards::default(), IllegalPolicy::Terminate).unwrap(),
        parse: |base: &Setup, o: &serde_json::Value| ResetOptions::from_json(&o.to_string())?.setup(base),
        good: [json!({}), json!({"difficulty": "hard", "missions": ["sabotage", "aid_the_spy"]})],
        bad: [
            json!({"dificulty": "hard"}),
            json!({"difficulty": "impossible"}),
            json!({"missions": ["sabotage", "nope"]}),
            json!({"missions": ["sabotage", "sabotage"]}),
        ],
        bad_setups: [ResetOptions::from_json(r#"{"start": {"resources": {"weapon": 9}}}"#)
            .unwrap()
            .setup(&Setup::default())
            .unwrap()],
        steps: 150,
    }
}

mod dday {
    use super::*;
    use maquis::dday::env::{DDay1944, EnvConfig, Opponent, OpponentKind, Rewards, Setup};
    use maquis::dday::ids::Side;
    use maquis::dday::scenario::Scenario;

    fn cfg(side: Side, kind: OpponentKind) -> EnvConfig {
        let setup = Setup { side, opponent: Opponent::bundled(kind, 4), ..Setup::default() };
        EnvConfig::new(setup, Rewards::default(), IllegalPolicy::Terminate).unwrap()
    }

    maquis::versus_conformance_tests! {
        two: DDay1944,
        versus_config: cfg,
        config: cfg(Side::German, OpponentKind::Heuristic),
        parse: |base: &Setup, o: &serde_json::Value| base.with_options(o, true),
        good: [json!({"side": "german", "opponent": "random", "dice": [1, 2]})],
        bad: [json!({"side": "nobody"}), json!({"bogus": 1}), json!({"dice": [7]}), json!([1])],
        bad_setups: [Setup { scenario: Scenario { dice: vec![7], ..Scenario::default() }, ..Setup::default() }],
        steps: 150,
    }
}

mod maurice {
    use super::*;
    use maquis::maurice::env::{EnvConfig, MauriceLite, Opponent, OpponentKind, Rewards, Setup};
    use maquis::maurice::Side;

    fn cfg(side: Side, kind: OpponentKind) -> EnvConfig {
        let setup = Setup { side, opponent: Opponent::bundled(kind, 4), ..Setup::default() };
        let setup = setup.with_options(&json!({"scenario": "skirmish"}), false).unwrap();
        EnvConfig::new(setup, Rewards::default(), IllegalPolicy::Terminate).unwrap()
    }

    maquis::versus_conformance_tests! {
        two: MauriceLite,
        versus_config: cfg,
        config: cfg(Side::Red, OpponentKind::Heuristic),
        parse: |base: &Setup, o: &serde_json::Value| base.with_options(o, true),
        good: [json!({"side": "red", "opponent": "random", "scenario": "skirmish", "dice": [1, 2]})],
        bad: [json!({"side": "green"}), json!({"bogus": 1}), json!({"scenario": "grand"}), json!({"dice": [7]}), json!([1])],
        bad_setups: [Setup { opponent: Opponent::bundled(OpponentKind::Network, 4), ..Setup::default() }],
        steps: 150,
    }
}

mod kuhn {
    use super::*;
    use maquis::env::versus::{Opponent, OpponentKind, Rewards, Setup};
    use maquis::env::Config;
    use maquis::kuhn::env::{Kuhn, KuhnPoker};
    use maquis::kuhn::Side;

    fn cfg(side: Side, kind: OpponentKind) -> Config<Kuhn> {
        let setup = Setup::<KuhnPoker> { side, opponent: Opponent::bundled(kind, 1), ..Setup::default() };
        Config::new(setup, Rewards::default(), IllegalPolicy::Terminate).unwrap()
    }

    maquis::versus_conformance_tests! {
        two: KuhnPoker,
        versus_config: cfg,
        config: cfg(Side::Second, OpponentKind::Heuristic),
        parse: |base: &Setup<KuhnPoker>, o: &serde_json::Value| base.with_options(o, true),
        good: [json!({"side": "second", "opponent": "random", "cards": ["K", "J"]})],
        bad: [json!({"side": "third"}), json!({"bogus": 1}), json!({"cards": ["K", "K"]}), json!([1])],
        bad_setups: [Setup::<KuhnPoker> { opponent: Opponent::bundled(OpponentKind::Search, 1), ..Setup::default() }],
        steps: 20,
    }
}
