//! The bundled snapshot's binary layout, read without inflating unneeded types.
//!
//! Layout (written by `scripts/gen_schema_snapshot.py`):
//! `RDSCHEMA\x01`, a little-endian `u32` length, that many bytes of a
//! zlib-compressed JSON index `{format, region, source, schemaDate,
//! types: [[typeName, offset, length], ...]}`, then the per-type zlib blobs
//! (offsets relative to the end of the index).

use super::error::SchemaError;
use flate2::read::ZlibDecoder;
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashMap;
use std::io::Read;

/// File magic and format version.
const MAGIC: &[u8] = b"RDSCHEMA\x01";
/// Largest inflated document accepted (the largest pruned one is ~180 KB).
const MAX_INFLATED: u64 = 64 * 1024 * 1024;

/// Where the snapshot's schemas came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provenance {
    /// The region whose provider list was used.
    pub region: String,
    /// The producing package and version, e.g. `cfn-lint 1.58.0`.
    pub source: String,
    /// When the package's schemas were fetched, if recorded.
    pub schema_date: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Index {
    format: u64,
    region: String,
    source: String,
    schema_date: Option<String>,
    types: Vec<(String, usize, usize)>,
}

/// A parsed snapshot: the index, and the bytes to inflate entries from.
#[derive(Debug)]
pub struct Snapshot<'a> {
    blobs: &'a [u8],
    entries: HashMap<String, (usize, usize)>,
    names: Vec<String>,
    provenance: Provenance,
}

impl<'a> Snapshot<'a> {
    /// Parses the framing and the index; entries stay compressed.
    pub fn parse(bytes: &'a [u8]) -> Result<Self, SchemaError> {
        let corrupt = |what: &str| SchemaError::Snapshot(what.to_string());
        let rest = bytes
            .strip_prefix(MAGIC)
            .ok_or_else(|| corrupt("bad magic"))?;
        let (len_bytes, rest) = rest
            .split_first_chunk::<4>()
            .ok_or_else(|| corrupt("truncated header"))?;
        let index_len = u32::from_le_bytes(*len_bytes) as usize;
        if rest.len() < index_len {
            return Err(corrupt("truncated index"));
        }
        let (index_blob, blobs) = rest.split_at(index_len);
        let index_json =
            inflate(index_blob).map_err(|e| SchemaError::Snapshot(format!("index: {e}")))?;
        let index: Index = serde_json::from_slice(&index_json)
            .map_err(|e| SchemaError::Snapshot(format!("index: {e}")))?;
        if index.format != 1 {
            return Err(SchemaError::Snapshot(format!(
                "unsupported format {}",
                index.format
            )));
        }
        let mut entries = HashMap::with_capacity(index.types.len());
        let mut names = Vec::with_capacity(index.types.len());
        for (name, offset, len) in index.types {
            if offset.checked_add(len).is_none_or(|end| end > blobs.len()) {
                return Err(SchemaError::Snapshot(format!(
                    "{name}: range outside the file"
                )));
            }
            names.push(name.clone());
            entries.insert(name, (offset, len));
        }
        Ok(Snapshot {
            blobs,
            entries,
            names,
            provenance: Provenance {
                region: index.region,
                source: index.source,
                schema_date: index.schema_date,
            },
        })
    }

    /// The type names the snapshot holds, sorted.
    pub fn type_names(&self) -> &[String] {
        &self.names
    }

    /// Where the schemas came from.
    pub fn provenance(&self) -> &Provenance {
        &self.provenance
    }

    /// Inflates one type's minified JSON document; `None` if the type is absent.
    pub fn raw_document(&self, type_name: &str) -> Result<Option<Vec<u8>>, SchemaError> {
        let Some(&(offset, len)) = self.entries.get(type_name) else {
            return Ok(None);
        };
        let blob = &self.blobs[offset..offset + len];
        inflate(blob)
            .map(Some)
            .map_err(|source| SchemaError::Inflate {
                type_name: type_name.to_string(),
                source,
            })
    }

    /// Inflates and parses one type's document; `None` if the type is absent.
    pub fn document(&self, type_name: &str) -> Result<Option<Value>, SchemaError> {
        let Some(raw) = self.raw_document(type_name)? else {
            return Ok(None);
        };
        serde_json::from_slice(&raw)
            .map(Some)
            .map_err(|source| SchemaError::Parse {
                type_name: type_name.to_string(),
                source,
            })
    }
}

/// Inflates one zlib stream, refusing absurd sizes.
fn inflate(blob: &[u8]) -> Result<Vec<u8>, std::io::Error> {
    let mut out = Vec::new();
    ZlibDecoder::new(blob)
        .take(MAX_INFLATED + 1)
        .read_to_end(&mut out)?;
    if out.len() as u64 > MAX_INFLATED {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "inflated document too large",
        ));
    }
    Ok(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use flate2::write::ZlibEncoder;
    use flate2::Compression;
    use serde_json::json;
    use std::io::Write;

    fn deflate(bytes: &[u8]) -> Vec<u8> {
        let mut enc = ZlibEncoder::new(Vec::new(), Compression::default());
        enc.write_all(bytes).unwrap();
        enc.finish().unwrap()
    }

    /// Builds a snapshot in the generator's layout from `(type, document)` pairs.
    pub(crate) fn build(docs: &[(&str, Value)]) -> Vec<u8> {
        let mut blobs = Vec::new();
        let mut types = Vec::new();
        for (name, doc) in docs {
            let blob = deflate(serde_json::to_string(doc).unwrap().as_bytes());
            types.push(json!([name, blobs.len(), blob.len()]));
            blobs.extend(blob);
        }
        let index = deflate(
            json!({"format": 1, "region": "us-east-1", "source": "test", "schemaDate": null, "types": types})
                .to_string()
                .as_bytes(),
        );
        let mut out = MAGIC.to_vec();
        out.extend((index.len() as u32).to_le_bytes());
        out.extend(index);
        out.extend(blobs);
        out
    }

    #[test]
    fn entries_inflate_on_demand() {
        let bytes = build(&[
            (
                "AWS::A::B",
                json!({"typeName": "AWS::A::B", "properties": {}}),
            ),
            (
                "AWS::C::D",
                json!({"typeName": "AWS::C::D", "properties": {"X": {}}}),
            ),
        ]);
        let snap = Snapshot::parse(&bytes).unwrap();
        assert_eq!(snap.type_names(), ["AWS::A::B", "AWS::C::D"]);
        assert_eq!(snap.provenance().source, "test");
        let doc = snap.document("AWS::C::D").unwrap().unwrap();
        assert_eq!(doc["typeName"], "AWS::C::D");
        assert!(snap.document("AWS::Missing::Type").unwrap().is_none());
    }

    #[test]
    fn corrupt_framing_is_an_error() {
        assert!(Snapshot::parse(b"nope").is_err());
        let mut bytes = build(&[("AWS::A::B", json!({"typeName": "AWS::A::B"}))]);
        bytes.truncate(MAGIC.len() + 6);
        assert!(Snapshot::parse(&bytes).is_err());
    }

    #[test]
    fn a_corrupt_entry_fails_only_that_type() {
        let mut bytes = build(&[
            (
                "AWS::A::B",
                json!({"typeName": "AWS::A::B", "properties": {}}),
            ),
            (
                "AWS::C::D",
                json!({"typeName": "AWS::C::D", "properties": {}}),
            ),
        ]);
        let last = bytes.len() - 3;
        bytes[last] ^= 0xff;
        let snap = Snapshot::parse(&bytes).unwrap();
        assert!(snap.document("AWS::A::B").unwrap().is_some());
        assert!(snap.document("AWS::C::D").is_err());
    }
}
