// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/tensorformat.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

namespace ss::ui {

namespace {

constexpr std::int64_t kSampleSize = 1 << 16;
constexpr int kMaxDecimals = 4;

bool exactAt(double v, int decimals)
{
    const double scaled = v * std::pow(10.0, decimals);
    return std::abs(scaled - std::nearbyint(scaled)) <= 1e-6 * std::max(1.0, std::abs(scaled));
}

QString floatSpecial(double v)
{
    if (std::isnan(v))
        return QStringLiteral("nan");
    return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
}

} // namespace

ValueFormatter::ValueFormatter(const Tensor& tensor) : m_tensor(tensor)
{
    if (!tensor.isValid() || !isFloat(tensor.dtype()) || tensor.size() == 0)
        return;
    // Evenly spaced elements stand for the whole tensor.
    const std::int64_t n = tensor.size();
    const std::int64_t step = std::max<std::int64_t>(1, n / kSampleSize);
    bool integral = true;
    double maxAbs = 0;
    double minNonZero = HUGE_VAL;
    int decimals = 0;
    for (std::int64_t i = 0; i < n; i += step) {
        const double v = tensor.doubleAt(i);
        if (!std::isfinite(v))
            continue;
        const double a = std::abs(v);
        maxAbs = std::max(maxAbs, a);
        if (a > 0)
            minNonZero = std::min(minNonZero, a);
        integral = integral && v == std::nearbyint(v);
        while (decimals < kMaxDecimals && !exactAt(v, decimals))
            ++decimals;
    }
    // Like NumPy's repr: past 1e8, or for fractions of very different sizes, fixed-point
    // digits stop helping.
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
    if (t == DType::String)
        return QLatin1Char('\'') + editText(index) + QLatin1Char('\'');
    if (t == DType::Bool)
        return m_tensor.intAt(index) ? QStringLiteral("True") : QStringLiteral("False");
    if (isInteger(t))
        return QString::number(m_tensor.intAt(index));
    const double v = m_tensor.doubleAt(index);
    if (!std::isfinite(v))
        return floatSpecial(v);
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
    if (t == DType::String)
        return QString::fromStdString(m_tensor.data<std::string>()[index]);
    if (!isFloat(t))
        return text(index);
    const double v = m_tensor.doubleAt(index);
    if (!std::isfinite(v))
        return floatSpecial(v);
    // Shortest text that reads back as the same value at the tensor's own precision (a float32
    // 0.1 edits as "0.1", not as its double expansion).
    char buffer[32];
    const auto end = t == DType::Float32 ? std::to_chars(buffer, buffer + sizeof buffer, float(v))
                                         : std::to_chars(buffer, buffer + sizeof buffer, v);
    return QString::fromLatin1(buffer, end.ptr - buffer);
}

} // namespace ss::ui
