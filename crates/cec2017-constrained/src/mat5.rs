//! A reader of exactly what the organisers' MATLAB files hold, for the embedded data
//! (feature `embedded`): level-5 MAT-files whose variables are zlib-compressed
//! (`miCOMPRESSED`) real double matrices (`miMATRIX` with flags, dimensions, a name and
//! an `miDOUBLE` real part). Anything else is refused with a message, never guessed.
//! The general reader of MATLAB folders is the `matfile` crate (feature `matlab`); this
//! one keeps its dependencies (nom, libflate, …) out of every program that only needs
//! the official data, at the price of ~100 lines checked against the text files on all
//! 112 instances (tests/reference_vectors.rs).

use flate2::read::ZlibDecoder;
use std::io::Read;

/// The element types of the level-5 format used here.
const MI_INT8: u32 = 1;
const MI_INT32: u32 = 5;
const MI_UINT32: u32 = 6;
const MI_DOUBLE: u32 = 9;
const MI_MATRIX: u32 = 14;
const MI_COMPRESSED: u32 = 15;
/// The array class of a double matrix (low byte of the array flags).
const MX_DOUBLE_CLASS: u32 = 6;

/// A variable: its name and values (column-major, as MATLAB stores them; their number
/// is checked against the dimensions the file gives).
#[derive(Debug)]
pub(crate) struct Variable {
    pub name: String,
    pub values: Vec<f64>,
}

fn u32_at(bytes: &[u8], at: usize) -> Result<u32, String> {
    bytes
        .get(at..at + 4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .ok_or_else(|| format!("truncated at byte {at}"))
}

/// One data element at `at`: (type, payload, offset of the next element). Handles the
/// small-element form (payload of at most 4 bytes inside the tag) and the 8-byte
/// padding of the regular form.
fn element(bytes: &[u8], at: usize) -> Result<(u32, &[u8], usize), String> {
    let first = u32_at(bytes, at)?;
    if first >> 16 != 0 {
        let (kind, len) = (first & 0xffff, (first >> 16) as usize);
        let payload = bytes
            .get(at + 4..at + 4 + len)
            .ok_or_else(|| format!("truncated small element at byte {at}"))?;
        return Ok((kind, payload, at + 8));
    }
    let len = u32_at(bytes, at + 4)? as usize;
    let payload = bytes
        .get(at + 8..at + 8 + len)
        .ok_or_else(|| format!("element at byte {at} claims {len} bytes past the end"))?;
    Ok((first, payload, at + 8 + len.div_ceil(8) * 8))
}

/// The variables of a MAT-file in the organisers' form.
pub(crate) fn variables(file: &[u8]) -> Result<Vec<Variable>, String> {
    if file.len() < 128 || !file.starts_with(b"MATLAB 5.0 MAT-file") || &file[126..128] != b"IM" {
        return Err("not a little-endian level-5 MAT-file".into());
    }
    let mut out = Vec::new();
    let mut at = 128;
    while at < file.len() {
        let first = u32_at(file, at)?;
        let len = u32_at(file, at + 4)? as usize;
        if first != MI_COMPRESSED {
            return Err(format!(
                "element type {first} at byte {at}, expected compressed (15)"
            ));
        }
        let packed = file
            .get(at + 8..at + 8 + len)
            .ok_or_else(|| format!("compressed element at byte {at} is truncated"))?;
        let mut matrix = Vec::new();
        ZlibDecoder::new(packed)
            .read_to_end(&mut matrix)
            .map_err(|e| format!("compressed element at byte {at}: {e}"))?;
        out.push(matrix_variable(&matrix)?);
        at += 8 + len;
    }
    Ok(out)
}

/// A real double `miMATRIX` element.
fn matrix_variable(bytes: &[u8]) -> Result<Variable, String> {
    let (kind, body, _) = element(bytes, 0)?;
    if kind != MI_MATRIX {
        return Err(format!("element type {kind}, expected a matrix (14)"));
    }
    let (kind, flags, next) = element(body, 0)?;
    if kind != MI_UINT32 || flags.len() < 4 {
        return Err("matrix without array flags".into());
    }
    let flags = u32_at(flags, 0)?;
    if flags & 0xff != MX_DOUBLE_CLASS || flags & 0x0800 != 0 {
        return Err(format!("array flags {flags:#x}: not a real double matrix"));
    }
    let (kind, dims, next) = element(body, next)?;
    if kind != MI_INT32 || dims.is_empty() || dims.len() % 4 != 0 {
        return Err("matrix without dimensions".into());
    }
    let dims = (0..dims.len() / 4)
        .map(|i| u32_at(dims, 4 * i).map(|d| d as usize))
        .collect::<Result<Vec<_>, _>>()?;
    let (kind, name, next) = element(body, next)?;
    if kind != MI_INT8 {
        return Err("matrix without a name".into());
    }
    let name = String::from_utf8(name.to_vec()).map_err(|_| "a name that is not UTF-8")?;
    let (kind, real, _) = element(body, next)?;
    let count: usize = dims.iter().product();
    if kind != MI_DOUBLE || real.len() != 8 * count {
        return Err(format!(
            "{name}: real part of type {kind} with {} bytes, expected {count} doubles (type 9)",
            real.len()
        ));
    }
    let values = real
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
        .collect();
    Ok(Variable { name, values })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_files_are_refused_with_a_message() {
        assert!(variables(b"not a mat file").is_err());
        let mut header = vec![0u8; 128];
        header[..19].copy_from_slice(b"MATLAB 5.0 MAT-file");
        header[126..128].copy_from_slice(b"IM");
        assert!(variables(&header).unwrap().is_empty());
        // An uncompressed element, and a compressed one that is cut short.
        let mut plain = header.clone();
        plain.extend_from_slice(&[14, 0, 0, 0, 0, 0, 0, 0]);
        assert!(variables(&plain)
            .unwrap_err()
            .contains("expected compressed"));
        let mut cut = header;
        cut.extend_from_slice(&[15, 0, 0, 0, 200, 0, 0, 0, 1, 2]);
        assert!(variables(&cut).unwrap_err().contains("truncated"));
    }
}
