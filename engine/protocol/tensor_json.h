// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/tensor.h"
#include "protocol/json.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ss {

/// A protocol tensor object as it was written, read and checked but not yet made: the GUI keeps
/// a fill or a literal as the user described it, the protocol makes the tensor at once. Both
/// read it here, so a tensor object that one accepts the other accepts too.
struct TensorSpec
{
    enum class Kind { Data, Value, Fill, Npy };
    Kind kind = Kind::Data;
    std::optional<DType> dtype; ///< as given (a value's inferred dtype is in `tensor`)
    std::optional<Shape> shape; ///< as given
    Fill fill = Fill::Arange;   ///< Fill
    std::uint64_t seed = 0;     ///< Fill::Random
    Json value;                 ///< Value: the nested literal as written
    Tensor tensor;              ///< Data, Value and Npy: the tensor, read and checked
};

/// A dtype by its protocol name ("int32"). Throws bad_request naming the dtypes otherwise.
DType readDType(const Json& value);
/// A shape: a list of non-negative integers, rank 0 to kMaxRank. Throws bad_request otherwise.
Shape readShape(const Json& value);
/// Reads and checks a protocol tensor object (the rules of tensorFromJson below) without making
/// a filled tensor: its declared size is checked against `limits` instead. `seed` is accepted
/// only with fill "random": arange, zeros and ones have nothing to seed, and a seed there is a
/// mistake worth saying (the user meant "random", or the seed does nothing) rather than ignoring.
TensorSpec tensorSpecFromJson(const Json& json, const Limits& limits);
/// The tensor a spec describes (a fill is made now).
Tensor makeTensor(const TensorSpec& spec, const Limits& limits);

/// Reads a protocol tensor object (engine/protocol/README.md, "Tensors"): `dtype` and `shape` with
/// exactly one of `data` (flat, row-major), `value` (a nested literal), `fill` (with `seed` for
/// "random") or `npy` (a file path). Unknown members are refused. The element limit is checked on
/// the declared shape before anything is allocated.
///
/// Throws OpError: bad_request for a malformed tensor (unknown dtype, rank above 32, a negative
/// dimension, data length not matching the shape, an element of the wrong type or out of its
/// dtype's range, e.g. 300 in int8, 1.5 in int32, 1e39 in float32), resource_exhausted over
/// `limits`.
Tensor tensorFromJson(const Json& json, const Limits& limits);

/// Reads a nested literal such as `[[1, 2], [3, 4]]` (the `value` form). The shape comes from
/// the nesting (ragged lists are bad_request); the dtype is `dtype` if given, else TensorFlow's
/// inference: bool for true/false, string for strings, float32 if any number has a fraction or
/// an exponent, else int32 (int64 if some integer does not fit int32). `[]` is float32, as in
/// TensorFlow. Float tensors also take the strings "nan", "inf" and "-inf".
Tensor tensorFromValue(const Json& value, std::optional<DType> dtype, const Limits& limits);

/// parseJson followed by tensorFromValue, for typed literals in editors. JSON syntax errors carry
/// the character position in OpError::position().
Tensor parseTensorLiteral(std::string_view text, std::optional<DType> dtype, const Limits& limits);

/// Writes {"dtype", "shape", "data"}: every element, row-major; floats in the shortest form that
/// reads back as the same value of their dtype, non-finite floats as "nan", "inf", "-inf";
/// strings as UTF-8 (every reader validates it, so a string tensor holds UTF-8 unless code put
/// other bytes there; those are written as U+FFFD).
void writeTensor(JsonWriter& writer, const Tensor& tensor);

/// Writes {"dtype", "shape", "size", "checksum"}; string tensors have no checksum. With an
/// executor, a big tensor's checksum is summed on its workers.
void writeTensorSummary(JsonWriter& writer, const Tensor& tensor, Executor* executor = nullptr);

/// The protocol's checksum (engine/protocol/README.md): the sum over elements i of bits(x_i) * (2i
/// + 1) modulo 2^64, bits being the element's own bit pattern zero-extended to 64 bits (bool: 0 or
/// 1). nullopt for strings, which have no bit pattern of fixed width. With an executor, a big
/// tensor's is summed on its workers (the same value).
std::optional<std::uint64_t> tensorChecksum(const Tensor& tensor, Executor* executor = nullptr);

/// 16 lower-case hex digits.
std::string checksumHex(std::uint64_t checksum);

} // namespace ss
