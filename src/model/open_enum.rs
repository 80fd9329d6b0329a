//! Enumerations that keep the values they do not know.

/// Declares a string enumeration of the service. Besides the listed variants it has
/// `Other(String)`, which holds any value this version does not know, so that a new value on the
/// live service is shown to the user instead of failing the whole answer.
///
/// Generated API: `as_str`, `parse` (never fails), `is_known`, `KNOWN` (every listed variant, in
/// order), `Display`, `FromStr`, `Serialize` and `Deserialize` as a JSON string.
macro_rules! open_enum {
    ($(#[$meta:meta])* pub enum $name:ident { $($(#[$vmeta:meta])* $variant:ident = $wire:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($(#[$vmeta])* $variant,)+
            /// A value this version does not know, kept as the service sent it.
            Other(String),
        }

        impl $name {
            /// Every value this version knows, in the order the service documents them.
            pub const KNOWN: &'static [$name] = &[$($name::$variant),+];

            /// The value as it travels on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    $($name::$variant => $wire,)+
                    $name::Other(s) => s.as_str(),
                }
            }

            /// Reads a wire value; an unknown one becomes `Other`.
            pub fn parse(s: &str) -> Self {
                match s {
                    $($wire => $name::$variant,)+
                    other => $name::Other(other.to_owned()),
                }
            }

            /// Whether the value is one this version knows.
            pub fn is_known(&self) -> bool {
                !matches!(self, $name::Other(_))
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = ::std::convert::Infallible;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Ok(Self::parse(s))
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <::std::borrow::Cow<'de, str> as ::serde::Deserialize>::deserialize(d)?;
                Ok(Self::parse(&s))
            }
        }
    };
}

#[cfg(test)]
mod tests {
    open_enum! {
        /// A test enumeration.
        pub enum Colour { Red = "RED", Green = "GREEN" }
    }

    #[test]
    fn known_values_round_trip() {
        let c: Colour = serde_json::from_str("\"GREEN\"").unwrap();
        assert_eq!(c, Colour::Green);
        assert_eq!(serde_json::to_string(&c).unwrap(), "\"GREEN\"");
        assert!(c.is_known());
        assert_eq!(Colour::KNOWN, &[Colour::Red, Colour::Green]);
    }

    #[test]
    fn unknown_values_are_kept_not_rejected() {
        let c: Colour = serde_json::from_str("\"ULTRAVIOLET\"").unwrap();
        assert_eq!(c, Colour::Other("ULTRAVIOLET".into()));
        assert!(!c.is_known());
        assert_eq!(c.to_string(), "ULTRAVIOLET");
        assert_eq!(serde_json::to_string(&c).unwrap(), "\"ULTRAVIOLET\"");
    }

    #[test]
    fn a_value_that_is_not_a_string_is_an_error() {
        assert!(serde_json::from_str::<Colour>("7").is_err());
    }
}
