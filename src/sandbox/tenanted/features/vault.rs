//! The vault of the sandbox's secrets (portal passwords, PINs, access codes, security answers):
//! each is sealed with AES-256-CBC and authenticated with HMAC-SHA256 (encrypt-then-MAC) before
//! it is kept, so that the state holds only ciphertext.
//!
//! The key is made on first need: in a file next to the state file (`<state>.key`, readable by its
//! owner only), or in memory when the sandbox has no state file (then the codes last as long as
//! the process, like every other record).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use aes::Aes256;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use cbc::cipher::block_padding::Pkcs7;
use cbc::cipher::{BlockModeDecrypt, BlockModeEncrypt, KeyIvInit};
use hmac::{Hmac, KeyInit, Mac};
use rand::RngCore;
use sha2::Sha256;
use zeroize::Zeroizing;

/// The prefix of a sealed value: the format's version.
const PREFIX: &str = "v1.";
const IV_LEN: usize = 16;
const TAG_LEN: usize = 32;
/// An encryption key and a MAC key, 32 bytes each.
const KEY_LEN: usize = 64;

type Keys = Zeroizing<[u8; KEY_LEN]>;

/// Why a code could not be sealed or opened.
#[derive(Debug, thiserror::Error)]
pub(crate) enum VaultError {
    #[error("the vault key file {path} cannot be used: {reason}")]
    Key { path: PathBuf, reason: String },
    #[error("a sealed code does not open with this vault's key (the key file was replaced?)")]
    Tampered,
}

/// Seals and opens the sandbox's secrets.
pub(crate) struct Vault {
    key_file: Option<PathBuf>,
    keys: Mutex<Option<Keys>>,
}

impl Vault {
    /// A vault whose key lives beside `state_file` (`<state>.key`), or in memory without one.
    pub fn new(state_file: Option<&Path>) -> Self {
        Vault {
            key_file: state_file.map(key_file_of),
            keys: Mutex::new(None),
        }
    }

    /// Where the key is kept, if on disk.
    #[cfg(test)]
    pub fn key_file(&self) -> Option<&Path> {
        self.key_file.as_deref()
    }

    fn with_keys<T>(&self, f: impl FnOnce(&[u8; KEY_LEN]) -> T) -> Result<T, VaultError> {
        let mut slot = self
            .keys
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if slot.is_none() {
            let keys = match &self.key_file {
                Some(path) => load_or_create(path)?,
                None => fresh_keys(),
            };
            *slot = Some(keys);
        }
        match slot.as_ref() {
            Some(keys) => Ok(f(keys)),
            None => Err(VaultError::Tampered),
        }
    }

    /// Seals `plain`: `v1.` and the base64 of IV, ciphertext and tag.
    pub fn seal(&self, plain: &str) -> Result<String, VaultError> {
        self.with_keys(|keys| {
            let (enc, mac_key) = keys.split_at(32);
            let mut iv = [0u8; IV_LEN];
            rand::rng().fill_bytes(&mut iv);
            let Ok(cipher) = cbc::Encryptor::<Aes256>::new_from_slices(enc, &iv) else {
                return Err(VaultError::Tampered);
            };
            let ciphertext = cipher.encrypt_padded_vec::<Pkcs7>(plain.as_bytes());
            let mut out = Vec::with_capacity(IV_LEN + ciphertext.len() + TAG_LEN);
            out.extend_from_slice(&iv);
            out.extend_from_slice(&ciphertext);
            let tag = tag_of(mac_key, &out)?;
            out.extend_from_slice(&tag);
            Ok(format!("{PREFIX}{}", STANDARD.encode(out)))
        })?
    }

    /// Opens a value [`seal`](Self::seal) made with this vault's key.
    pub fn open(&self, sealed: &str) -> Result<String, VaultError> {
        self.with_keys(|keys| {
            let (enc, mac_key) = keys.split_at(32);
            let bytes = sealed
                .strip_prefix(PREFIX)
                .and_then(|b64| STANDARD.decode(b64).ok())
                .ok_or(VaultError::Tampered)?;
            if bytes.len() < IV_LEN + 16 + TAG_LEN {
                return Err(VaultError::Tampered);
            }
            let (body, tag) = bytes.split_at(bytes.len() - TAG_LEN);
            let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(mac_key)
                .map_err(|_| VaultError::Tampered)?;
            mac.update(body);
            mac.verify_slice(tag).map_err(|_| VaultError::Tampered)?;
            let (iv, ciphertext) = body.split_at(IV_LEN);
            let cipher = cbc::Decryptor::<Aes256>::new_from_slices(enc, iv)
                .map_err(|_| VaultError::Tampered)?;
            let plain = cipher
                .decrypt_padded_vec::<Pkcs7>(ciphertext)
                .map_err(|_| VaultError::Tampered)?;
            String::from_utf8(plain).map_err(|_| VaultError::Tampered)
        })?
    }
}

fn tag_of(mac_key: &[u8], data: &[u8]) -> Result<Vec<u8>, VaultError> {
    let mut mac =
        <Hmac<Sha256> as KeyInit>::new_from_slice(mac_key).map_err(|_| VaultError::Tampered)?;
    mac.update(data);
    Ok(mac.finalize().into_bytes().to_vec())
}

/// `<state>.key` beside the state file.
fn key_file_of(state_file: &Path) -> PathBuf {
    let mut name = state_file.as_os_str().to_owned();
    name.push(".key");
    PathBuf::from(name)
}

fn fresh_keys() -> Keys {
    let mut keys = Zeroizing::new([0u8; KEY_LEN]);
    rand::rng().fill_bytes(keys.as_mut());
    keys
}

/// Reads the key file, or creates it (owner read and write only) when there is none.
fn load_or_create(path: &Path) -> Result<Keys, VaultError> {
    let fail = |reason: String| VaultError::Key {
        path: path.to_owned(),
        reason,
    };
    match fs::read_to_string(path) {
        Ok(text) => {
            let bytes = Zeroizing::new(
                STANDARD
                    .decode(text.trim())
                    .map_err(|_| fail("it does not hold a key in base64".into()))?,
            );
            let mut keys = Zeroizing::new([0u8; KEY_LEN]);
            if bytes.len() != KEY_LEN {
                return Err(fail(format!(
                    "it holds {} bytes, not {KEY_LEN}",
                    bytes.len()
                )));
            }
            keys.copy_from_slice(&bytes);
            Ok(keys)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // Written whole under another name, then renamed: a crash never leaves a key file
            // that is empty or cut short.
            let keys = fresh_keys();
            let mut creating = path.as_os_str().to_owned();
            creating.push(".creating");
            let creating = PathBuf::from(creating);
            let _ = fs::remove_file(&creating);
            let mut options = fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::OpenOptionsExt;
                options.mode(0o600);
            }
            let written = options.open(&creating).and_then(|mut file| {
                let text = Zeroizing::new(STANDARD.encode(keys.as_ref()));
                file.write_all(text.as_bytes())?;
                file.sync_all()
            });
            let renamed = written.and_then(|()| fs::rename(&creating, path));
            if let Err(e) = renamed {
                let _ = fs::remove_file(&creating);
                return Err(fail(e.to_string()));
            }
            #[cfg(unix)]
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                let _ = fs::File::open(dir).and_then(|d| d.sync_all());
            }
            Ok(keys)
        }
        Err(e) => Err(fail(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_code_opens_and_does_not_show_in_clear() {
        let vault = Vault::new(None);
        let sealed = vault.seal("ABCD1234").unwrap();
        assert!(sealed.starts_with("v1."));
        assert!(!sealed.contains("ABCD1234"));
        assert_ne!(
            sealed,
            vault.seal("ABCD1234").unwrap(),
            "a fresh IV each time"
        );
        assert_eq!(vault.open(&sealed).unwrap(), "ABCD1234");
    }

    #[test]
    fn a_changed_or_foreign_value_does_not_open() {
        let vault = Vault::new(None);
        let sealed = vault.seal("12345678").unwrap();
        let mut bytes = STANDARD.decode(&sealed[3..]).unwrap();
        bytes[20] ^= 1;
        let changed = format!("v1.{}", STANDARD.encode(&bytes));
        assert!(matches!(vault.open(&changed), Err(VaultError::Tampered)));
        assert!(matches!(
            Vault::new(None).open(&sealed),
            Err(VaultError::Tampered)
        ));
        assert!(vault.open("12345678").is_err());
    }

    #[test]
    fn the_key_file_is_made_once_beside_the_state_and_kept_private() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("state.json");
        let vault = Vault::new(Some(&state));
        let key_file = vault.key_file().unwrap().to_owned();
        assert_eq!(key_file, dir.path().join("state.json.key"));
        assert!(!key_file.exists(), "made on first need only");
        let sealed = vault.seal("ABCD1234").unwrap();
        assert!(key_file.exists());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&key_file).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        // Another run with the same state file opens what this one sealed.
        assert_eq!(Vault::new(Some(&state)).open(&sealed).unwrap(), "ABCD1234");
    }
}
