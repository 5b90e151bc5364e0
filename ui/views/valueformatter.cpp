// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/valueformatter.h"

#include "core/error.h"
#include "core/mapped_file.h"
#include "core/strings.h"
#include "protocol/tensor_json.h"

#include <QLocale>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>

namespace ss::ui {

namespace {

// The style is read from up to kSampleBlocks evenly spaced runs of kSampleRun elements: runs
// read whole cache lines, where single elements spread over a large tensor would each cost a
// trip to memory (8 ms for 65536 of them, measured on a freshly computed 10^6-element output).
constexpr std::int64_t kSampleBlocks = 64;
constexpr std::int64_t kSampleRun = 256;
constexpr int kMaxDecimals = 4;
constexpr double kPowersOfTen[kMaxDecimals + 1] = {1, 10, 100, 1000, 10000};

bool exactAt(double v, int decimals)
{
    const double scaled = v * kPowersOfTen[decimals];
    return std::abs(scaled - std::nearbyint(scaled)) <= 1e-6 * std::max(1.0, std::abs(scaled));
}

QString floatSpecial(double v)
{
    if (std::isnan(v)) return QStringLiteral("nan");
    return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
}

} // namespace

ValueFormatter::ValueFormatter(const Tensor& tensor) : m_tensor(tensor)
{
    if (!tensor.isValid() || !(isFloat(tensor.dtype()) || isComplex(tensor.dtype())) ||
        tensor.size() == 0)
        return;
    bool integral = true;
    double maxAbs = 0;
    double minNonZero = HUGE_VAL;
    int decimals = 0;
    const auto look = [&](double v) {
        if (!std::isfinite(v)) return;
        const double a = std::abs(v);
        maxAbs = std::max(maxAbs, a);
        if (a > 0) minNonZero = std::min(minNonZero, a);
        integral = integral && v == std::nearbyint(v);
        while (decimals < kMaxDecimals && !exactAt(v, decimals))
            ++decimals;
    };
    const std::int64_t n = tensor.size();
    const std::int64_t runs = std::min(kSampleBlocks, (n + kSampleRun - 1) / kSampleRun);
    // Runs spread over a mapped file: each brings in its own page, not a readahead window (on
    // the GUI thread, a cold 16 GB file's 64 runs took 62 ms of readahead).
    const ScatteredReads scattered(tensor.raw(), n * dtypeSize(tensor.dtype()),
                                   runs * kSampleRun < n);
    visitDType(tensor.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (kIsRealFloat<T> || kIsComplex<T>) {
            const T* values = tensor.data<T>();
            for (std::int64_t r = 0; r < runs; ++r) {
                const std::int64_t begin = runs == 1 ? 0 : (n - kSampleRun) * r / (runs - 1);
                for (std::int64_t i = begin; i < std::min(n, begin + kSampleRun); ++i) {
                    if constexpr (kIsComplex<T>) {
                        look(double(values[i].real()));
                        look(double(values[i].imag()));
                    } else {
                        look(shown(realValue(values[i])));
                    }
                }
            }
        }
    });
    // Past 1e8, or for fractions of very different sizes, fixed-point digits stop helping. Looser
    // than NumPy's repr (and slicescope-cli's printing), which also goes scientific when the
    // largest and smallest values differ by more than 1e3: in a grid of cells, 0.5 beside 2000.5
    // (or an arange of floats) reads better in fixed point.
    if (maxAbs >= 1e8 || (!integral && (maxAbs >= 1e6 || minNonZero < 1e-4)))
        m_style = FloatStyle::Scientific;
    else if (integral)
        m_style = FloatStyle::Integral;
    else
        m_decimals = std::max(1, decimals);
}

QString ValueFormatter::text(std::int64_t index) const
{
    const DType t = m_tensor.dtype();
    if (t == DType::String) // as NumPy prints it: 'abc', or b'abc' for bytes
        return QString::fromStdString(
            pythonStringRepr(m_tensor.data<std::string>()[index], m_tensor.holdsBytes()));
    if (t == DType::Bool)
        return m_tensor.intAt(index) ? QStringLiteral("True") : QStringLiteral("False");
    if (t == DType::UInt64) return QString::number(m_tensor.data<std::uint64_t>()[index]);
    if (isInteger(t)) return QString::number(m_tensor.intAt(index));
    if (isComplex(t)) {
        const std::complex<double> c = m_tensor.complexAt(index);
        // The sign from the bit, as Python's repr: 3-0j keeps its negative zero.
        return realText(c.real()) + QLatin1Char(std::signbit(c.imag()) ? '-' : '+') +
               realText(std::abs(c.imag())) + QLatin1Char('j');
    }
    return realText(shown(m_tensor.doubleAt(index)));
}

double ValueFormatter::shown(double v) const
{
    const DType t = m_tensor.dtype();
    if ((t != DType::Float16 && t != DType::BFloat16) || !std::isfinite(v)) return v;
    // The decimal the value is shown as: a float16 0.1 holds 0.0999755859375, which would
    // otherwise take four decimals (and pull its column with it).
    return std::stod(shortestDecimal(v, t));
}

QString ValueFormatter::realText(double v) const
{
    if (!std::isfinite(v)) return floatSpecial(v);
    // QString::number drops a negative zero's sign; NumPy prints it (-0.), as the edit text does.
    if (v == 0 && std::signbit(v)) return QLatin1Char('-') + realText(0.0);
    switch (m_style) {
    case FloatStyle::Integral: return QString::number(v, 'f', 0) + QLatin1Char('.');
    case FloatStyle::Scientific: return QString::number(v, 'e', 3);
    case FloatStyle::Fixed: break;
    }
    return QString::number(v, 'f', m_decimals);
}

QString ValueFormatter::editText(std::int64_t index) const
{
    const DType t = m_tensor.dtype();
    if (t == DType::String) return QString::fromStdString(m_tensor.data<std::string>()[index]);
    // Shortest text that reads back as the same value at the tensor's own precision (a float32
    // 0.1 edits as "0.1", not as its double expansion).
    if (isFloat(t)) return QString::fromStdString(shortestDecimal(m_tensor.doubleAt(index), t));
    if (isComplex(t)) {
        const DType part = t == DType::Complex64 ? DType::Float32 : DType::Float64;
        const std::complex<double> c = m_tensor.complexAt(index);
        std::string im = shortestDecimal(c.imag(), part);
        if (im[0] != '-') im = "+" + im;
        return QString::fromStdString(shortestDecimal(c.real(), part) + im + "j");
    }
    return text(index);
}

namespace {

// One part of a complex number as the JSON the protocol's reader takes: a number, or "nan",
// "inf", "-inf" (quoted). Empty if `text` is not a number.
std::string complexPartJson(std::string_view text)
{
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);
    double v = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || r.ec == std::errc::invalid_argument || r.ptr != text.data() + text.size())
        return {};
    if (std::isnan(v)) return "\"nan\"";
    if (std::isinf(v)) return v > 0 ? "\"inf\"" : "\"-inf\"";
    // Out of double's range: the reader names the range of the dtype.
    if (r.ec == std::errc::result_out_of_range) return std::string(text);
    char buffer[32];
    return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, v).ptr);
}

// Python's complex spelling turned into the protocol's [real, imaginary]: "1+2j", "(1-2.5j)",
// "-3j", "4", "nan+infj". The split is at the last sign not at the start and not after an
// exponent's 'e'.
std::optional<std::string> complexJson(std::string s)
{
    if (s.size() >= 2 && s.front() == '(' && s.back() == ')') s = s.substr(1, s.size() - 2);
    if (s.empty()) return std::nullopt;
    std::string real = s, imag = "0";
    if (s.back() == 'j' || s.back() == 'J') {
        s.pop_back();
        std::size_t split = std::string::npos;
        for (std::size_t k = s.size(); k-- > 1;)
            if ((s[k] == '+' || s[k] == '-') && s[k - 1] != 'e' && s[k - 1] != 'E') {
                split = k;
                break;
            }
        real = split == std::string::npos ? "0" : s.substr(0, split);
        imag = split == std::string::npos ? s : s.substr(split);
        if (imag.empty() || imag == "+" || imag == "-") imag += "1"; // "1+j"
    }
    const std::string re = complexPartJson(real), im = complexPartJson(imag);
    if (re.empty() || im.empty()) return std::nullopt;
    return "[" + re + ", " + im + "]";
}

} // namespace

Tensor parseElement(const QString& text, DType dtype, const Limits& limits)
{
    const std::string typed = text.trimmed().toStdString();
    if (isComplex(dtype) && !typed.starts_with('[')) {
        const std::optional<std::string> json = complexJson(typed);
        if (!json)
            badRequest("a " + std::string(dtypeName(dtype)) +
                       " value is written a+bj, a-bj, bj or a (or [a, b]), not '" + typed + "'");
        return parseTensorLiteral(*json, dtype, limits);
    }
    Tensor scalar;
    try {
        scalar = parseTensorLiteral(typed, dtype, limits);
    } catch (const OpError&) {
        // Unquoted words: a string element as typed, or a float's nan/inf.
        if (dtype == DType::String) return Tensor::scalar(DType::String, typed);
        // Only the words: a number's own error ("out of range for float16") stays.
        if (!isFloat(dtype) || (typed != "nan" && typed != "inf" && typed != "-inf")) throw;
        scalar = parseTensorLiteral('"' + typed + '"', dtype, limits);
    }
    if (scalar.size() != 1 || scalar.rank() != 0)
        badRequest("type one value, not " + std::to_string(scalar.size()));
    return scalar;
}

Tensor withElement(const Tensor& tensor, std::int64_t flat, const QString& text,
                   const Limits& limits)
{
    const Tensor scalar = parseElement(text, tensor.dtype(), limits);
    // Copy on write: an input may be a file mapped read-only (a .npy bigger than memory), and is
    // shared with the evaluations that read it. The copy is an allocation like any other, sized
    // against the memory free now before it is made.
    Tensor edited = tensor.clone(limits.budget ? limits : limits.forRequest());
    if (tensor.dtype() == DType::String)
        edited.data<std::string>()[flat] = scalar.data<std::string>()[0];
    else // the same dtype: its bits
        std::memcpy(static_cast<char*>(edited.raw()) + flat * dtypeSize(tensor.dtype()),
                    scalar.raw(), std::size_t(dtypeSize(tensor.dtype())));
    return edited;
}

void keepGroupSeparators()
{
    QLocale locale;
    if (locale.numberOptions() & QLocale::OmitGroupSeparator) {
        locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
        QLocale::setDefault(locale);
    }
}

} // namespace ss::ui
