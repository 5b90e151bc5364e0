// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/tensor.h"

#include <string>
#include <string_view>

namespace ss {

// NumPy .npy files (format versions 1.0, 2.0 and 3.0).
//
// Reading: little or big endian, C or Fortran order (Fortran data is transposed into row-major).
// dtypes: b1 -> bool, i1/i2/i4/i8 and u1/u2/u4/u8 -> the integers, f2/f4/f8 -> float16/32/64,
// c8/c16 -> complex64/128, V2 (or 'bfloat16') -> bfloat16, and both string kinds -> string: 'U'
// (UCS-4) is converted to UTF-8; 'S' (bytes) is kept byte for byte, UTF-8 or not (NumPy reads
// any), and gives a tensor that holds bytes (Tensor::holdsBytes).
// NumPy's trailing NUL padding is removed, as NumPy does. Everything else (object 'O', other
// structured/record dtypes, long double, datetimes) is refused, as are truncated files, bad magic
// bytes and header garbage: all bad_request, naming the problem.
//
// Writing: format 1.0 (2.0 if the header would not fit, which no shape of rank 32 or less reaches),
// little-endian, C order; strings as '|S' if the tensor holds bytes, '<U' otherwise, as long as
// numpyStringLength says: the file's length they were read with (Tensor::itemLength, which a
// slice keeps, as NumPy's does), so '|S5' stays '|S5' when its longest element has 3 bytes.

/// Reads a .npy file. Throws OpError: bad_request for an unreadable or unsupported file,
/// resource_exhausted if the array is over `limits` (checked on the header, before allocating).
/// With setNpyMapping(true), an array of 1 MiB or more whose layout allows it (little-endian
/// numbers other than bool, C order, data at a multiple of 64 bytes) is mapped read-only instead
/// of read (mapped_file.h): no copy and no allocation, and only its shape is checked against
/// `limits` (Limits::checkFileBacked), so an array bigger than memory can be used; the caller
/// must call checkMappedInputs() after its last read, since the file may change under it.
/// A string array's tensor keeps its file's string length (Tensor::itemLength).
Tensor readNpyFile(const std::string& path, const Limits& limits);
/// Whether readNpyFile may map files (process-wide; off by default). slicescope-cli's `run` and
/// `eval` turn it on, and so does the workbench (EngineClient): their requests and evaluations
/// check their inputs after the op (runRequest), and an edit copies the tensor first.
void setNpyMapping(bool enabled);
bool npyMapping();
/// The same from the bytes of a file.
Tensor readNpyBytes(std::string_view bytes, const Limits& limits);

/// Writes `tensor` to `path` atomically (the file appears complete or not at all). Throws
/// OpError(bad_request) naming the path if it cannot be written. Strings are written as bytes or
/// text as the tensor holds them, numpyStringLength long.
void writeNpyFile(const std::string& path, const Tensor& tensor);
/// The bytes writeNpyFile would write.
std::string encodeNpy(const Tensor& tensor);

} // namespace ss
