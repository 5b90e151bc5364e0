// SPDX-License-Identifier: GPL-3.0-or-later
// Random shapes and Python subscripts for the differential and round-trip suites. The mix leans
// on what breaks indexing code: negative and out-of-range bounds, bounds near +-2^63, strides of
// both signs and zero, None in all its spellings, one or two ellipses, more entries than the
// input has dimensions, zero-size dimensions, and every written form of a subscript.
#pragma once

#include "core/shape.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace ss::testing {

struct GeneratedSubscript
{
    std::string engineText; // what the engine parses
    // What NumPy must evaluate to give TensorFlow's answer: the same subscript, except that a
    // list subscript becomes the tuple TensorFlow reads it as.
    std::string numpyText;
    bool listForm = false;
    // An index of 2^63 - 1: TensorFlow cannot encode its end (index + 1) in an int64.
    bool hasInt64MaxIndex = false;
};

class SubscriptGenerator
{
public:
    explicit SubscriptGenerator(std::uint64_t seed) : m_rng(seed) {}

    bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(m_rng) < p; }
    std::int64_t between(std::int64_t lo, std::int64_t hi)
    {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(m_rng);
    }
    template <class T, std::size_t N> const T& oneOf(const std::array<T, N>& items)
    {
        return items[std::size_t(between(0, std::int64_t(N) - 1))];
    }

    // Rank 0 to maxRank, sizes 0 to 5 (zero now and then), at most maxElements elements.
    Shape shape(int maxRank = 6, std::int64_t maxElements = 2048)
    {
        const int rank = int(between(0, maxRank));
        for (;;) {
            Shape s;
            for (int k = 0; k < rank; ++k)
                s.push_back(chance(0.06) ? 0 : between(1, 5));
            if (numElements(s) <= maxElements) return s;
        }
    }

    // Values near the ends of int64, where index arithmetic overflows if done carelessly.
    std::int64_t extreme()
    {
        constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
        constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
        static constexpr std::array<std::int64_t, 6> values = {
            kMin, kMin + 1, -(std::int64_t(1) << 62), std::int64_t(1) << 62, kMax - 1, kMax};
        return oneOf(values);
    }
    // Mostly small (in and just outside the sizes shape() makes), sometimes extreme.
    std::int64_t bound() { return chance(0.9) ? between(-7, 7) : extreme(); }
    std::int64_t stride()
    {
        if (chance(0.04)) return 0;
        if (chance(0.05)) return extreme();
        const std::int64_t s = between(1, 3);
        return chance(0.5) ? s : -s;
    }

    // An integer as Python may write it: decimal, hex, with a plus sign or a spaced sign.
    std::string intText(std::int64_t v)
    {
        const bool small = v > -1000 && v < 1000;
        std::string digits = v < 0 ? std::to_string(v).substr(1) : std::to_string(v);
        if (small && chance(0.05)) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "0x%llx",
                          static_cast<unsigned long long>(v < 0 ? -v : v));
            digits = buf;
        }
        if (v < 0) return (chance(0.05) ? "- " : "-") + digits;
        return (chance(0.04) ? "+" : "") + digits;
    }

    std::string space()
    {
        const double r = std::uniform_real_distribution<double>(0, 1)(m_rng);
        return r < 0.7 ? "" : r < 0.95 ? " " : "  ";
    }

    // A subscript for an input of the given rank. At most 10 - rank new axes: results reach
    // rank 9 and 10, past the old cap of 8 (TensorFlow has none; inputs stay within rank 8, so
    // StridedSlice's 8 processing dimensions are never exceeded).
    GeneratedSubscript subscript(int rank)
    {
        GeneratedSubscript g;
        int count = int(between(0, rank + 1));
        if (chance(0.08)) count += int(between(1, 3)); // more entries than dimensions
        int newAxes = 0;
        bool anySlice = false;
        std::vector<std::string> items;
        for (int k = 0; k < count; ++k) {
            const double r = std::uniform_real_distribution<double>(0, 1)(m_rng);
            if (r < 0.22) {
                const std::int64_t v = bound();
                g.hasInt64MaxIndex |= v == std::numeric_limits<std::int64_t>::max();
                items.push_back(intText(v));
            } else if (r < 0.36 && newAxes < 10 - rank) {
                ++newAxes;
                static constexpr std::array<const char*, 6> spellings = {
                    "None", "None", "np.newaxis", "tf.newaxis", "newaxis", "numpy.newaxis"};
                items.push_back(oneOf(spellings));
            } else if (r < 0.47) {
                items.push_back(chance(0.85) ? "..." : "Ellipsis");
            } else {
                anySlice = true;
                items.push_back(sliceText());
            }
        }

        std::string joined;
        for (std::size_t k = 0; k < items.size(); ++k)
            joined += (k ? "," + space() : "") + items[k];
        const std::string name = chance(0.95) ? "x" : "tensor";
        const std::string open = name + (chance(0.03) ? " [" : "[") + space();
        const std::string close = space() + "]";
        if (items.empty()) {
            g.listForm = chance(0.15);
            g.engineText = open + (g.listForm ? "[]" : "()") + close;
            g.numpyText = "x[()]";
            return g;
        }
        // Python accepts slices only directly inside the brackets, so the parenthesised and
        // list forms hold no slice.
        if (!anySlice && chance(0.1)) {
            g.listForm = true;
            g.engineText = open + "[" + joined + "]" + close;
            g.numpyText = "x[(" + joined + ",)]";
            return g;
        }
        if (!anySlice && chance(0.1)) {
            g.engineText = open + "(" + joined + ")" + close;
            g.numpyText = "x[(" + joined + ")]";
            return g;
        }
        if (chance(0.1)) joined += "," + space();
        g.engineText = chance(0.08) ? joined : open + joined + close;
        g.numpyText = "x[" + joined + "]";
        return g;
    }

    // An advanced-indexing subscript for `shape`: integer index arrays of rank 0 to 3 (rank 0 is
    // a plain integer) whose shapes mostly broadcast, boolean masks over one or two dimensions
    // (mostly of the right shape), bool scalars, mixed with integers, slices, None and ...;
    // values mostly in range, often negative, sometimes out of range. Now and then the whole
    // subscript is one list (NumPy reads it as an index array, PyTorch as a tuple when it holds
    // a list).
    GeneratedSubscript advancedSubscript(const Shape& shape)
    {
        GeneratedSubscript g;
        const int rank = int(shape.size());
        Shape common; // the shape most arrays broadcast to
        for (int k = int(between(0, 2)); k > 0; --k)
            common.push_back(between(1, 3));
        auto sizeAt = [&](int dim) { return dim < rank ? shape[std::size_t(dim)] : 3; };
        if (chance(0.12)) {
            const std::string list =
                chance(0.5) ? intArrayText(common, sizeAt(0)) : boolMaskText(shape, 0, 1);
            g.listForm = true;
            g.engineText = g.numpyText = "x[" + list + "]";
            return g;
        }
        int count = int(between(1, rank + 1));
        if (chance(0.05)) ++count;
        std::vector<std::string> items;
        bool anyArray = false;
        int dim = 0; // the dimension the next item most likely reads
        for (int k = 0; k < count; ++k) {
            const double r = std::uniform_real_distribution<double>(0, 1)(m_rng);
            if (r < 0.34) {
                anyArray = true;
                items.push_back(intArrayText(common, sizeAt(dim)));
                ++dim;
            } else if (r < 0.46) {
                anyArray = true;
                const int covers = int(between(1, std::max(1, std::min(2, rank - dim))));
                items.push_back(boolMaskText(shape, dim, covers));
                dim += covers;
            } else if (r < 0.50) {
                anyArray = true;
                items.push_back(chance(0.5) ? "True" : "False");
            } else if (r < 0.62) {
                const std::int64_t size = sizeAt(dim);
                items.push_back(
                    intText(chance(0.85) && size > 0 ? between(-size, size - 1) : between(-6, 6)));
                ++dim;
            } else if (r < 0.72) {
                items.push_back("None");
            } else if (r < 0.80) {
                items.push_back("...");
            } else {
                items.push_back(sliceText());
                ++dim;
            }
        }
        if (!anyArray) items[std::size_t(between(0, count - 1))] = intArrayText(common, 3);
        std::string joined;
        for (std::size_t k = 0; k < items.size(); ++k)
            joined += (k ? "," + space() : "") + items[k];
        if (items.size() == 1 && chance(0.2)) joined += ",";
        g.engineText = g.numpyText = "x[" + joined + "]";
        return g;
    }

private:
    // A nested list of integers whose shape is `common`, a broadcastable variant of it, or (one
    // time in ten) a rank 1 to 3 shape of its own; a rank-0 shape is a plain integer.
    std::string intArrayText(const Shape& common, std::int64_t size)
    {
        Shape s;
        if (chance(0.1)) {
            for (int k = int(between(0, 3)); k > 0; --k)
                s.push_back(between(0, 3));
        } else {
            const std::size_t drop = std::size_t(between(0, std::int64_t(common.size())));
            for (std::size_t k = drop; k < common.size(); ++k)
                s.push_back(chance(0.2) ? 1 : common[k]);
            if (s.empty() && chance(0.7)) s.push_back(between(1, 3));
        }
        auto value = [&]() {
            if (chance(0.9) && size > 0) return between(-size, size - 1);
            return between(-size - 2, size + 1);
        };
        if (s.empty()) return intText(value());
        return nestedText(s, 0, [&] { return intText(value()); });
    }

    // A nested list of bools over dimensions [first, first + covers) of `shape`, usually of their
    // sizes.
    std::string boolMaskText(const Shape& shape, int first, int covers)
    {
        Shape s;
        for (int k = 0; k < covers; ++k) {
            const std::size_t d = std::size_t(first + k);
            const bool exact = d < shape.size() && chance(0.9);
            s.push_back(exact ? shape[d] : between(1, 3));
        }
        return nestedText(s, 0, [&] { return std::string(chance(0.5) ? "True" : "False"); });
    }

    template <class F> std::string nestedText(const Shape& s, std::size_t depth, F element)
    {
        if (depth == s.size()) return element();
        std::string t = "[";
        for (std::int64_t k = 0; k < s[depth]; ++k)
            t += (k ? ", " : "") + nestedText(s, depth + 1, element);
        return t + "]";
    }

    std::string sliceText()
    {
        auto part = [&](bool isStep) -> std::string {
            const double r = std::uniform_real_distribution<double>(0, 1)(m_rng);
            if (r < 0.45) return "";
            if (r < 0.5) return "None";
            return intText(isStep ? stride() : bound());
        };
        std::string text = part(false) + space() + ":" + space() + part(false);
        if (chance(0.5)) text += space() + ":" + space() + part(true);
        return text;
    }

    std::mt19937_64 m_rng;
};

} // namespace ss::testing
