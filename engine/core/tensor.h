// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/dtype.h"
#include "core/error.h"
#include "core/shape.h"

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ss {

class Executor;
class MemoryBudget;

/// The most elements a tensor over a mapped file may have: 2^40, the element indices a packed
/// source holds (plan.h).
inline constexpr std::int64_t kMaxFileBackedElements = std::int64_t(1) << 40;

/// How much a single request may allocate. Checked before any allocation, so a request that is
/// too big is refused with `resource_exhausted` and nothing is allocated.
struct Limits
{
    /// Default: 2^31 elements, or fewer if the machine's memory holds fewer bytes.
    std::int64_t maxElements = std::int64_t(1) << 31;
    /// Default: no limit; machineDefault() takes the cgroup's memory limit or physical memory.
    std::int64_t maxBytes = std::int64_t(1) << 62;
    /// What maxBytes is, as errors name it.
    std::string bytesName = "the byte limit";
    /// True when maxBytes bounds the whole process (machineDefault), so that what the process
    /// already holds counts against each request; false when it bounds one request alone.
    bool processWide = false;
    /// The running account of one request (forRequest()), shared by every copy of these limits
    /// that reads, plans and executes it; null outside a request, where each tensor is checked
    /// on its own.
    std::shared_ptr<MemoryBudget> budget;

    /// The machine's limits: maxBytes from machineMemoryLimit() (memory_budget.h).
    static Limits machineDefault();
    /// A copy with a fresh budget of maxBytes for one request.
    Limits forRequest() const;
    /// Throws resource_exhausted if a tensor of `shape` and `dtype` is over the limit (or its
    /// element count overflows), invalid_argument if its rank is over kMaxRank; returns the element
    /// count otherwise. `what` names it ("the output"). Charges nothing.
    std::int64_t check(const Shape& shape, DType dtype, const std::string& what) const;
    /// For a tensor over file-backed memory (Tensor::wrap): the rank and overflow checks of
    /// check(), and at most kMaxFileBackedElements elements; not maxElements nor maxBytes, which
    /// bound memory the process allocates. Returns the element count.
    std::int64_t checkFileBacked(const Shape& shape, DType dtype, const std::string& what) const;
    /// check(), then charges the tensor's bytes to the budget (if any): for what is about to be
    /// allocated.
    std::int64_t reserve(const Shape& shape, DType dtype, const std::string& what) const;
    /// Charges `bytes` for `what` to the budget, if there is one.
    void charge(std::int64_t bytes, const std::string& what) const;
};

/// Calls f(std::type_identity<T>{}) with T the C++ element type of `t` (bool, std::int8_t, ...,
/// std::uint64_t, Float16, BFloat16, float, double, std::complex<float>, std::complex<double>,
/// std::string).
template <class F> decltype(auto) visitDType(DType t, F&& f)
{
    switch (t) {
    case DType::Bool: return f(std::type_identity<bool>{});
    case DType::Int8: return f(std::type_identity<std::int8_t>{});
    case DType::UInt8: return f(std::type_identity<std::uint8_t>{});
    case DType::Int16: return f(std::type_identity<std::int16_t>{});
    case DType::UInt16: return f(std::type_identity<std::uint16_t>{});
    case DType::Int32: return f(std::type_identity<std::int32_t>{});
    case DType::UInt32: return f(std::type_identity<std::uint32_t>{});
    case DType::Int64: return f(std::type_identity<std::int64_t>{});
    case DType::UInt64: return f(std::type_identity<std::uint64_t>{});
    case DType::Float16: return f(std::type_identity<Float16>{});
    case DType::BFloat16: return f(std::type_identity<BFloat16>{});
    case DType::Float32: return f(std::type_identity<float>{});
    case DType::Float64: return f(std::type_identity<double>{});
    case DType::Complex64: return f(std::type_identity<std::complex<float>>{});
    case DType::Complex128: return f(std::type_identity<std::complex<double>>{});
    case DType::String: break;
    }
    return f(std::type_identity<std::string>{});
}

/// True for the 16-bit floats, which are held as their bits.
template <class T>
inline constexpr bool kIsHalfFloat = std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;
/// True for the element types of the real float dtypes.
template <class T>
inline constexpr bool kIsRealFloat = std::is_floating_point_v<T> || kIsHalfFloat<T>;
/// True for std::complex<float> and std::complex<double>.
template <class T> inline constexpr bool kIsComplex = false;
template <class T> inline constexpr bool kIsComplex<std::complex<T>> = true;

/// The real value of a numeric element (complex: its real part, as TensorFlow's Cast to a real
/// dtype takes it).
template <class T> double realValue(const T& v)
{
    if constexpr (kIsHalfFloat<T>)
        return toFloat(v);
    else if constexpr (kIsComplex<T>)
        return double(v.real());
    else
        return static_cast<double>(v);
}

/// The element of type T nearest the real value `v` (bool: v != 0; integers: C++ conversion;
/// complex: imaginary part 0). Not for strings.
template <class T> T fromReal(double v)
{
    if constexpr (std::is_same_v<T, bool>)
        return v != 0;
    else if constexpr (std::is_same_v<T, Float16>)
        return float16FromDouble(v);
    else if constexpr (std::is_same_v<T, BFloat16>)
        return bfloat16FromDouble(v);
    else if constexpr (kIsComplex<T>)
        return T(typename T::value_type(v), 0);
    else
        return static_cast<T>(v);
}

/// The element of type T for the integer `v`: integers wrap (as NumPy's astype), floats round,
/// bool is v != 0. Not for strings.
template <class T> T fromInteger(std::int64_t v)
{
    if constexpr (std::is_same_v<T, bool>)
        return v != 0;
    else if constexpr (std::is_integral_v<T>)
        return static_cast<T>(static_cast<std::make_unsigned_t<T>>(v));
    else
        return fromReal<T>(double(v));
}

/// A dense row-major tensor of rank 0 to kMaxRank (32). Copies share the buffer: treat a tensor as
/// immutable once it has been handed to an op, and use clone() before editing a shared one.
class Tensor
{
public:
    Tensor() = default;

    /// A tensor with uninitialised numeric elements (strings are empty). Checks `limits` first.
    static Tensor empty(DType dtype, Shape shape, const Limits& limits = {});
    /// All elements zero (false, 0, 0.0, "").
    static Tensor zeros(DType dtype, Shape shape, const Limits& limits = {});
    /// A tensor of a numeric dtype over `data`, a buffer of at least its bytes that the
    /// shared_ptr keeps alive (a file mapped read-only, mapped_file.h). Checks the shape
    /// (Limits::checkFileBacked) but neither the element nor the byte limit, and charges nothing
    /// to a budget: the memory is the file's page cache, not an allocation, so a file bigger
    /// than memory can be used. A read-only buffer must never be written: ops only read their
    /// inputs; clone() before editing.
    static Tensor wrap(DType dtype, Shape shape, std::shared_ptr<void> data,
                       const Limits& limits = {});
    /// A rank-0 tensor.
    template <class T> static Tensor scalar(DType dtype, T value)
    {
        Tensor t = empty(dtype, {});
        if constexpr (std::is_same_v<T, std::string>)
            t.data<std::string>()[0] = value;
        else if constexpr (kIsComplex<T>)
            t.setFromComplex(0, value);
        else if constexpr (std::is_floating_point_v<T>)
            t.setFromDouble(0, value);
        else
            t.setFromInt(0, static_cast<std::int64_t>(value));
        return t;
    }
    /// A vector of int32 or int64 values (the dtype must be one of those).
    static Tensor fromInts(DType dtype, Shape shape, const std::vector<std::int64_t>& values);

    DType dtype() const { return m_dtype; }
    const Shape& shape() const { return m_shape; }
    int rank() const { return int(m_shape.size()); }
    std::int64_t size() const { return m_size; }
    bool isValid() const { return m_valid; }
    /// For a string tensor: whether its elements are bytes (NumPy's 'S', b'abc') rather than
    /// text ('U', 'abc'). TensorFlow's strings are bytes either way, so no op reads it; it is how
    /// the tensor is shown and written (a .npy of bytes is read as bytes and written as '|S').
    /// Copies, reshapes and clones keep it; an op's string outputs take their first string
    /// input's (executePlan), as NumPy's pad and take do. Elements are UTF-8 either way.
    bool holdsBytes() const { return m_bytes; }
    void setHoldsBytes(bool bytes) { m_bytes = bytes && m_dtype == DType::String; }
    /// For a string tensor: NumPy's length of its elements, bytes ('S') or code points ('U'),
    /// as the .npy file it came from says it (`|S5`: 5; `|S0`, which NumPy reads and writes,
    /// 0), or -1 if none did (NumPy makes a new array's strings at least 1 long). NumPy keeps it
    /// through slicing (`np.load(f)[1:]` is still `|S5`), so the tensor does: copies, reshapes
    /// and clones keep it, and an op's string outputs take the longest of their string inputs'
    /// (executePlan), as NumPy's concatenate does. An element may be longer (an edit): NumPy
    /// would cut it to the length; SliceScope widens the type instead (numpyStringLength).
    std::int64_t itemLength() const { return m_itemLength; }
    void setItemLength(std::int64_t length)
    {
        m_itemLength = m_dtype == DType::String ? std::max<std::int64_t>(-1, length) : -1;
    }

    template <class T> T* data() { return static_cast<T*>(m_data.get()); }
    template <class T> const T* data() const { return static_cast<const T*>(m_data.get()); }
    void* raw() { return m_data.get(); }
    const void* raw() const { return m_data.get(); }

    /// A deep copy with its own buffer, allocated under `limits` (checked and charged to its
    /// budget before the copy, as Tensor::empty).
    Tensor clone(const Limits& limits = {}) const;
    /// The same buffer under another shape with the same element count.
    Tensor reshaped(Shape shape) const;
    /// Elements [offset, offset + n) of this tensor's buffer as a tensor of `shape` (n elements),
    /// sharing the buffer, which the view keeps alive: a contiguous block of a mapped file read
    /// where it lies. Numeric dtypes only; the range must lie inside this tensor.
    Tensor view(std::int64_t offset, Shape shape) const;

    /// Element i as int64 (bool: 0/1; floats truncated toward zero; complex: the real part). Not
    /// for strings.
    std::int64_t intAt(std::int64_t i) const;
    /// Element i as double (complex: the real part). Not for strings.
    double doubleAt(std::int64_t i) const;
    /// Element i as a complex number (real dtypes: imaginary part 0). Not for strings.
    std::complex<double> complexAt(std::int64_t i) const;
    /// Sets element i from an integer, with C++ conversion to the dtype. Not for strings.
    void setFromInt(std::int64_t i, std::int64_t value);
    /// Sets element i from a double, with C++ conversion to the dtype (float16: rounded to
    /// nearest, ties to even). Not for strings.
    void setFromDouble(std::int64_t i, double value);
    /// Sets element i from a complex number (real dtypes take the real part). Not for strings.
    void setFromComplex(std::int64_t i, std::complex<double> value);
    /// Every element as int64 (for index tensors of integer dtype).
    std::vector<std::int64_t> toInt64Vector() const;

    /// Element-wise equality of dtype, string kind and NumPy string length (numpyStringLength:
    /// as a .npy file writes them), shape and bits (NaNs with equal bits are equal).
    bool identical(const Tensor& other) const;

private:
    DType m_dtype = DType::Float32;
    Shape m_shape;
    std::int64_t m_size = 0;
    bool m_valid = false;
    bool m_bytes = false;
    std::int64_t m_itemLength = -1;
    std::shared_ptr<void> m_data;
};

/// Throws OpError(bad_request) naming the file if one of `tensors` reads a mapped file
/// (Tensor::wrap over mapFileRange) that was truncated or changed while it was in use: then what
/// was computed from it is not what the file held. Call it after the last read of the inputs.
void checkMappedInputs(const std::vector<Tensor>& tensors);

/// Frees the buffers that freed tensors leave for reuse (tensor.cpp keeps the last few of 64 KiB
/// and more, to spare the page faults of fresh memory); returns their bytes.
std::int64_t releasePooledBuffers();
/// How many freed buffers of 8 MiB and more are kept for reuse, and how many bytes together at
/// most (by default 2 and 512 MiB: enough for a script's repeated request). The workbench keeps
/// more (keepFreedMemoryForReuse), for ops with several big outputs and 10^8-element tensors.
void keepPooledBuffers(int largeBuffers, std::int64_t largeBytes);
/// Makes sure that a tensor of `bytes` (8 MiB and more) will find a kept buffer whose pages are
/// already in memory: unless one is kept, maps one (or grows the kept one it would take), faults
/// its pages in on the calling thread, and keeps it. Returns whether it did. The workbench calls
/// it on a worker once a result is shown, so that the next edit's output is not fresh memory.
/// It stops early, keeping the buffer as far as it got, when `stop` (asked before each page)
/// says so, or when a tensor asks for a buffer this one would give: that tensor waits for it (a
/// page at most) and takes it, its other pages faulted in by the tensor's own writes, instead of
/// mapping a buffer of its own beside it.
bool prepareReusableBuffer(std::int64_t bytes, const std::function<bool()>& stop = {});

/// Generated contents (protocol "fill"). Every fill is deterministic.
enum class Fill { Arange, Zeros, Ones, Random };
/// "arange", "zeros", "ones", "random" (the protocol's names).
std::string_view fillName(Fill fill);
/// arange: element i is i converted to the dtype (integers wrap like NumPy's astype; bool is
/// i % 2; strings are the decimal digits of i). random: a fixed generator seeded by `seed`;
/// integers uniform in [0, 100) (bool: 0 or 1), floats uniform in [0, 1) (rounded to the dtype),
/// complex numbers with such a real part and imaginary part 0, strings "r<0..99>".
/// With an executor, numeric fills run on all its workers (the same values).
Tensor makeFilled(DType dtype, const Shape& shape, Fill fill, std::uint64_t seed,
                  const Limits& limits, Executor* executor = nullptr);

} // namespace ss
