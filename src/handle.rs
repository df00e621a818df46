//! Handles: the eight lowercase hex digits that name one stored run.
//!
//! A handle is a 32-bit FNV-1a hash of what makes a run unique (argv, cwd, pid, time, a
//! per-process counter), printed as `{:08x}`. The hash is written here rather than taken
//! from std: `DefaultHasher`'s algorithm is explicitly unstable across releases, and a
//! handle printed yesterday must still mean the same thing after a toolchain upgrade.
//! Uniqueness does not rest on the hash: the store reserves a handle by creating its
//! directory exclusively and rehashes on a collision.
//!
//! Handles typed by users are parsed, never trusted: exactly eight characters from
//! `[0-9a-f]`, so no path can ever be formed from user input.

use std::fmt;

const FNV_OFFSET_BASIS: u32 = 0x811c_9dc5;
const FNV_PRIME: u32 = 0x0100_0193;

/// 32-bit FNV-1a over `bytes`.
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    bytes.iter().fold(FNV_OFFSET_BASIS, |hash, &byte| {
        (hash ^ u32::from(byte)).wrapping_mul(FNV_PRIME)
    })
}

/// The name of one stored run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Handle(u32);

impl Handle {
    /// The handle for a run described by `seed`.
    pub fn from_seed(seed: &[u8]) -> Handle {
        Handle(fnv1a32(seed))
    }

    /// Parse a handle typed by a user: exactly eight lowercase hex digits, or nothing.
    pub fn parse(text: &str) -> Option<Handle> {
        let well_formed = text.len() == 8
            && text
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        well_formed.then(|| Handle(u32::from_str_radix(text, 16).expect("checked hex digits")))
    }
}

impl fmt::Display for Handle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:08x}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Published FNV-1a 32-bit test vectors (the FNV reference test suite, fnv-1a 32).
    #[test]
    fn fnv1a32_matches_published_vectors() {
        assert_eq!(fnv1a32(b""), 0x811c_9dc5);
        assert_eq!(fnv1a32(b"a"), 0xe40c_292c);
        assert_eq!(fnv1a32(b"b"), 0xe70c_2de5);
        assert_eq!(fnv1a32(b"foobar"), 0xbf9c_f968);
    }

    #[test]
    fn handle_prints_as_eight_lowercase_hex_digits() {
        assert_eq!(Handle::from_seed(b"").to_string(), "811c9dc5");
        assert_eq!(Handle(0xab).to_string(), "000000ab");
    }

    #[test]
    fn parse_round_trips_printed_handles() {
        let handle = Handle::from_seed(b"cargo build");
        assert_eq!(Handle::parse(&handle.to_string()), Some(handle));
    }

    #[test]
    fn parse_rejects_anything_that_is_not_eight_lowercase_hex_digits() {
        for bad in [
            "",
            "1234567",
            "123456789",
            "ABCDEF12",
            "../../et",
            "1234567g",
            "+1234567",
            " 1234567",
            "12345678\n",
            "１２３４５６７８",
        ] {
            assert_eq!(Handle::parse(bad), None, "{bad:?} must not parse");
        }
    }
}
