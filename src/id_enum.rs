//! The enums of spec ids that every game declares (locations, zones, units …): a `#[repr(u8)]`
//! enum whose `as_str()` is the RULES.md id, `parse()` its inverse, `ALL` the spec's order (the
//! order of observations and action names), serialized as the id.

macro_rules! id_enum {
    ($(#[$meta:meta])* $name:ident, $kind:literal, [$($variant:ident = $s:literal),+ $(,)?]) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum $name { $($variant),+ }

        // Saves, state dicts and options use the spec ids ("pont_du_nord"), not the Rust names.
        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
                let s = <std::borrow::Cow::<'de, str> as ::serde::Deserialize<'de>>::deserialize(d)?;
                $name::parse(&s).map_err(::serde::de::Error::custom)
            }
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            pub const COUNT: usize = Self::ALL.len();

            pub const fn as_str(self) -> &'static str {
                match self { $($name::$variant => $s),+ }
            }
            #[inline]
            pub const fn idx(self) -> usize { self as usize }
            pub fn from_idx(i: usize) -> Option<$name> { Self::ALL.get(i).copied() }
            pub fn parse(s: &str) -> Result<$name, $crate::error::Error> {
                match s {
                    $($s => Ok($name::$variant),)+
                    _ => Err($crate::error::Error::UnknownId { kind: $kind, id: s.to_string() }),
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str(self.as_str()) }
        }
    };
}
pub(crate) use id_enum;
