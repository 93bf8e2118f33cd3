//! C: charges and combat — who can charge and the charge move (C2–C4), the procedure (C5, C6),
//! combat (C7–C13) and fall backs (C14).

pub mod charge_move;
pub mod combat;
pub mod fall_back;
pub mod procedure;

pub use charge_move::{can_charge, charge_move, ChargeMove};
