// SPDX-License-Identifier: GPL-3.0-or-later
// split, tile, pad, concat, stack, unstack, reverse_sequence, reverse, roll, transpose: every
// worked example and error of TensorFlow's kernels and docs, the seed page's examples with their
// true results, NumPy differential runs, every dtype, sources, steps and the size limits.
#include "numpy_oracle.h"
#include "op_runner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <string>

using namespace ss;
using namespace ss::testing;

namespace {

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

struct Out
{
    Shape shape;
    std::vector<std::int64_t> values; // empty with a non-empty shape: only the shape is checked
};

struct Case
{
    const char* name;
    const char* op;
    std::vector<std::vector<Tensor>> inputs;
    Attrs attrs;
    std::vector<Out> outputs;
    ErrorCode code = ErrorCode::Internal; // Internal: no error expected
    std::string message;
};

Tensor T(const Shape& shape, const std::vector<std::int64_t>& values)
{
    return i32(shape, values);
}
Attr ilist(const std::vector<std::int64_t>& v)
{
    return Attr::ints(v);
}
Attr matrix(const std::vector<std::vector<std::int64_t>>& rows)
{
    Attr::List list;
    for (const auto& r : rows)
        list.push_back(Attr::ints(r));
    return list;
}
Attr bools(const std::vector<bool>& v)
{
    Attr::List list;
    for (bool b : v)
        list.emplace_back(b);
    return list;
}
std::vector<std::int64_t> range(std::int64_t from, std::int64_t to)
{
    std::vector<std::int64_t> v(std::size_t(to - from));
    std::iota(v.begin(), v.end(), from);
    return v;
}

// The tensors the examples keep coming back to.
const Tensor& t23()
{
    static const Tensor t = T({2, 3}, {1, 2, 3, 4, 5, 6});
    return t;
}
const Tensor& t23b()
{
    static const Tensor t = T({2, 3}, {7, 8, 9, 10, 11, 12});
    return t;
}

const std::vector<Case>& cases()
{
    const auto IA = ErrorCode::InvalidArgument;
    // One row per case reads better than one line per field.
    // clang-format off
    static const std::vector<Case> all = {
        // ---- split (section 3; seed 004; erratum 27)
        {"split [5,30] into 3 along axis 1 (seed)", "split", {{iota({5, 30})}},
         {{"num_or_size_splits", 3}, {"axis", 1}}, {{{5, 10}, {}}, {{5, 10}, {}}, {{5, 10}, {}}}},
        {"split 1.x names num_split/split_dim (erratum 27)", "split", {{iota({2, 4})}},
         {{"num_split", 2}, {"split_dim", 1}}, {{{2, 2}, {0, 1, 4, 5}}, {{2, 2}, {2, 3, 6, 7}}}},
        {"split range(10) by [3,-1,5]", "split", {{iota({10})}},
         {{"num_or_size_splits", ilist({3, -1, 5})}},
         {{{3}, {0, 1, 2}}, {{2}, {3, 4}}, {{5}, {5, 6, 7, 8, 9}}}},
        {"split range(5) into 2", "split", {{iota({5})}}, {{"num_or_size_splits", 2}}, {}, IA,
         "Number of ways to split should evenly divide the split dimension, but got split_dim 0 "
         "(size = 5) and num_split 2"},
        {"SplitV single output resolves -1 (TensorFlow 2.21)", "split", {{iota({4})}},
         {{"num_or_size_splits", ilist({-1})}}, {{{4}, {0, 1, 2, 3}}}},
        {"SplitV single output of another size", "split", {{iota({4})}},
         {{"num_or_size_splits", ilist({3})}}, {}, IA,
         "If there is only one output, it must have the same size as the input. Input size: 4 "
         "output size: 3"},
        {"SplitV single output of the whole axis", "split", {{iota({4})}},
         {{"num_or_size_splits", ilist({4})}}, {{{4}, {0, 1, 2, 3}}}},
        {"split zeros[0,3] into 2", "split", {{iota({0, 3})}}, {{"num_or_size_splits", 2}},
         {{{0, 3}, {}}, {{0, 3}, {}}}},
        {"split into 1 is the input", "split", {{iota({2, 2})}}, {{"num_or_size_splits", 1}},
         {{{2, 2}, {0, 1, 2, 3}}}},
        {"split axis -1", "split", {{iota({2, 4})}}, {{"num_or_size_splits", 2}, {"axis", -1}},
         {{{2, 2}, {0, 1, 4, 5}}, {{2, 2}, {2, 3, 6, 7}}}},
        {"split_dim as a list", "split", {{iota({4})}},
         {{"num_or_size_splits", 2}, {"axis", ilist({0})}}, {}, IA,
         "split_dim must be a scalar but has rank 1"},
        {"split axis 2 of rank 2", "split", {{iota({2, 4})}},
         {{"num_or_size_splits", 2}, {"axis", 2}}, {}, IA,
         "-input rank(-2) <= split_dim < input rank (2), but got 2"},
        {"split axis -3 of rank 2", "split", {{iota({2, 4})}},
         {{"num_or_size_splits", 2}, {"axis", -3}}, {}, IA,
         "-input rank(-2) <= split_dim < input rank (2), but got -3"},
        {"split a scalar", "split", {{iota({})}}, {{"num_or_size_splits", 1}}, {}, IA,
         "-input rank(-0) <= split_dim < input rank (0), but got 0"},
        {"split into 0 (attr minimum)", "split", {{iota({4})}}, {{"num_or_size_splits", 0}}, {},
         IA, "Value for attr 'num_split' of 0 must be at least minimum 1"},
        {"split into -2 (attr minimum)", "split", {{iota({4})}}, {{"num_or_size_splits", -2}}, {},
         IA, "Value for attr 'num_split' of -2 must be at least minimum 1"},
        {"split into 0 before the split_dim checks", "split", {{iota({})}},
         {{"num_split", 0}, {"split_dim", ilist({0})}}, {}, IA,
         "Value for attr 'num_split' of 0 must be at least minimum 1"},
        {"SplitV split_dim with two elements", "split", {{iota({4})}},
         {{"num_or_size_splits", ilist({2, 2})}, {"axis", ilist({0, 0})}}, {}, IA,
         "split_dim_tensor must have exactly one element."},
        {"SplitV split_dim as [1]", "split", {{iota({2, 4})}},
         {{"num_or_size_splits", ilist({1, 3})}, {"axis", ilist({1})}},
         {{{2, 1}, {0, 4}}, {{2, 3}, {1, 2, 3, 5, 6, 7}}}},
        {"SplitV sizes 2-D", "split", {{iota({4})}}, {{"num_or_size_splits", matrix({{1, 3}})}}, {},
         IA,
         "size of the split_tensor must be 1-D and have the same elements as outputs got 2 -D "
         "and 2 elements"},
        {"SplitV no sizes", "split", {{iota({4})}}, {{"num_or_size_splits", ilist({})}}, {}, IA,
         "Number of ways to split should be > 0, but got 0"},
        {"SplitV axis out of range", "split", {{iota({4})}},
         {{"num_or_size_splits", ilist({2, 2})}, {"axis", 1}}, {}, IA,
         "-input rank(-1) <= split_dim < input rank (1), but got 1"},
        {"SplitV two -1", "split", {{iota({4})}}, {{"num_or_size_splits", ilist({-1, 2, -1})}}, {},
         IA, "There can only be one -1 in the input."},
        {"SplitV sizes short of the axis", "split", {{iota({4})}},
         {{"num_or_size_splits", ilist({1, 2})}}, {}, IA,
         "Determined shape must either match input shape along split_dim exactly if fully "
         "specified, or be less than the size of the input along split_dim if not fully "
         "specified.  Got: 3 (1 + 2 = 3, but dimension 0 has size 4)"},
        {"SplitV [2, 3, 4] on a dimension of 6", "split", {{iota({2, 6})}},
         {{"num_or_size_splits", ilist({2, 3, 4})}, {"axis", 1}}, {}, IA,
         "Determined shape must either match input shape along split_dim exactly if fully "
         "specified, or be less than the size of the input along split_dim if not fully "
         "specified.  Got: 9 (2 + 3 + 4 = 9, but dimension 1 has size 6)"},
        {"SplitV sizes beyond the axis with -1", "split", {{iota({5})}},
         {{"num_or_size_splits", ilist({3, -1, 5})}}, {}, IA,
         "Determined shape must either match input shape along split_dim exactly if fully "
         "specified, or be less than the size of the input along split_dim if not fully "
         "specified.  Got: 8 (3 + 5 = 8 without the -1, but dimension 0 has size 5)"},
        {"SplitV sum past int64 is exact", "split", {{iota({4})}},
         {{"num_or_size_splits", ilist({kInt64Max, kInt64Max})}}, {}, IA,
         "Determined shape must either match input shape along split_dim exactly if fully "
         "specified, or be less than the size of the input along split_dim if not fully "
         "specified.  Got: 18446744073709551614 (9223372036854775807 + 9223372036854775807 = "
         "18446744073709551614, but dimension 0 has size 4)"},
        {"SplitV [-2,5] on 3 fails the size check", "split", {{iota({3})}},
         {{"num_or_size_splits", ilist({-2, 5})}}, {}, IA,
         "Split size at index 0 must be >= 0. Got: -2"},
        {"SplitV rest past int64 is exact", "split", {{iota({5})}},
         {{"num_or_size_splits", ilist({2, -1, std::numeric_limits<std::int64_t>::min()})}}, {}, IA,
         "Split size at index 2 must be >= 0. Got: -9223372036854775808"},
        {"SplitV zero sizes", "split", {{iota({3})}}, {{"num_or_size_splits", ilist({0, 3, 0})}},
         {{{0}, {}}, {{3}, {0, 1, 2}}, {{0}, {}}}},

        // ---- tile (section 4; seed 004; erratum 26)
        {"tile [[0,1,2],[3,4,5]] by [2,1]", "tile", {{iota({2, 3})}},
         {{"multiples", ilist({2, 1})}}, {{{4, 3}, {0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5}}}},
        {"tile [[1,2],[3,4]] by [1,2]", "tile", {{T({2, 2}, {1, 2, 3, 4})}},
         {{"multiples", ilist({1, 2})}}, {{{2, 4}, {1, 2, 1, 2, 3, 4, 3, 4}}}},
        {"tile [a,b,c,d] by [2] (seed)", "tile", {{T({4}, {10, 11, 12, 13})}},
         {{"multiples", ilist({2})}}, {{{8}, {10, 11, 12, 13, 10, 11, 12, 13}}}},
        {"tile [1,2] by [0]", "tile", {{T({2}, {1, 2})}}, {{"multiples", ilist({0})}}, {{{0}, {}}}},
        {"tile [1,2] by [-1]", "tile", {{T({2}, {1, 2})}}, {{"multiples", ilist({-1})}}, {}, IA,
         "Expected multiples[0] >= 0, but got -1"},
        {"tile a scalar by [] (erratum 26)", "tile", {{T({}, {7})}}, {{"multiples", ilist({})}},
         {{{}, {7}}}},
        {"tile 3-D by [2,1,3]", "tile", {{iota({1, 2, 2})}}, {{"multiples", ilist({2, 1, 3})}},
         {{{2, 2, 6}, {0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3, 0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3}}}},
        {"tile multiples 2-D", "tile", {{iota({2})}}, {{"multiples", matrix({{1, 2}})}}, {}, IA,
         "Expected multiples to be 1-D, but got shape [1,2]"},
        {"tile multiples scalar", "tile", {{iota({2})}}, {{"multiples", 2}}, {}, IA,
         "Expected multiples to be 1-D, but got shape []"},
        {"tile multiples too short", "tile", {{iota({2, 2})}}, {{"multiples", ilist({2})}}, {}, IA,
         "Expected multiples argument to be a vector of length 2 but got length 1"},

        // ---- pad (section 5; seed 004; erratum 27)
        {"pad CONSTANT (seed)", "pad", {{t23()}}, {{"paddings", matrix({{1, 1}, {2, 2}})}},
         {{{4, 7}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0, 0, 4, 5, 6, 0, 0, 0, 0, 0, 0, 0,
                    0, 0}}}},
        {"pad REFLECT (seed)", "pad", {{t23()}},
         {{"paddings", matrix({{1, 1}, {2, 2}})}, {"mode", "REFLECT"}},
         {{{4, 7}, {6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1, 6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3,
                    2, 1}}}},
        {"pad SYMMETRIC (seed)", "pad", {{t23()}},
         {{"paddings", matrix({{1, 1}, {2, 2}})}, {"mode", "SYMMETRIC"}},
         {{{4, 7}, {2, 1, 1, 2, 3, 3, 2, 2, 1, 1, 2, 3, 3, 2, 5, 4, 4, 5, 6, 6, 5, 5, 4, 4, 5, 6,
                    6, 5}}}},
        {"pad SYMMETRIC [1,2,3] by 3 (max)", "pad", {{T({3}, {1, 2, 3})}},
         {{"paddings", matrix({{3, 3}})}, {"mode", "SYMMETRIC"}},
         {{{9}, {3, 2, 1, 1, 2, 3, 3, 2, 1}}}},
        {"pad REFLECT [1,2,3] by 2", "pad", {{T({3}, {1, 2, 3})}},
         {{"paddings", matrix({{2, 2}})}, {"mode", "REFLECT"}}, {{{7}, {3, 2, 1, 2, 3, 2, 1}}}},
        {"pad REFLECT [1,2,3] by [3,0]", "pad", {{T({3}, {1, 2, 3})}},
         {{"paddings", matrix({{3, 0}})}, {"mode", "REFLECT"}}, {}, IA,
         "paddings must be less than the dimension size: 3, 0 not less than 3"},
        {"pad CONSTANT 9", "pad", {{T({1}, {1})}},
         {{"paddings", matrix({{1, 0}})}, {"constant_values", 9}}, {{{2}, {9, 1}}}},
        {"pad constant 2.7 on int32 is refused, not truncated", "pad", {{T({1}, {1})}},
         {{"paddings", matrix({{0, 1}})}, {"constant_values", 2.7}}, {}, IA,
         "Cannot convert 2.7 to EagerTensor of dtype int32"},
        {"pad constant 2.0 on int32 is refused too", "pad", {{T({1}, {1})}},
         {{"paddings", matrix({{0, 1}})}, {"constant_values", 2.0}}, {}, IA,
         "Cannot convert 2.0 to EagerTensor of dtype int32"},
        {"pad constant 0.0 on int32 calls Pad", "pad", {{T({1}, {1})}},
         {{"paddings", matrix({{0, 1}})}, {"constant_values", 0.0}}, {{{2}, {1, 0}}}},
        {"pad mode in lower case", "pad", {{T({3}, {1, 2, 3})}},
         {{"paddings", matrix({{1, 1}})}, {"mode", "reflect"}}, {{{5}, {2, 1, 2, 3, 2}}}},
        {"pad unknown mode", "pad", {{T({3}, {1, 2, 3})}},
         {{"paddings", matrix({{1, 1}})}, {"mode", "wrap"}}, {}, IA, "Unknown padding mode: WRAP"},
        {"pad REFLECT on a size-0 dim, zero padding", "pad", {{iota({2, 0})}},
         {{"paddings", matrix({{0, 0}, {0, 0}})}, {"mode", "REFLECT"}}, {}, IA,
         "paddings must be less than the dimension size: 0, 0 not less than 0"},
        {"pad SYMMETRIC on a size-0 dim, zero padding", "pad", {{iota({2, 0})}},
         {{"paddings", matrix({{1, 1}, {0, 0}})}, {"mode", "SYMMETRIC"}}, {{{4, 0}, {}}}},
        {"pad SYMMETRIC beyond the dim", "pad", {{T({3}, {1, 2, 3})}},
         {{"paddings", matrix({{4, 0}})}, {"mode", "SYMMETRIC"}}, {}, IA,
         "paddings must be no greater than the dimension size: 4, 0 greater than 3"},
        {"pad CONSTANT negative", "pad", {{T({3}, {1, 2, 3})}}, {{"paddings", matrix({{-1, 0}})}},
         {}, IA, "Paddings must be non-negative: -1 0"},
        {"pad REFLECT negative", "pad", {{T({3}, {1, 2, 3})}},
         {{"paddings", matrix({{0, -2}})}, {"mode", "REFLECT"}}, {}, IA,
         "paddings must be non-negative: 0 -2"},
        {"pad paddings 1-D", "pad", {{T({3}, {1, 2, 3})}}, {{"paddings", ilist({1, 1})}}, {}, IA,
         "paddings must be a matrix with 2 columns: [2]"},
        {"pad paddings with 3 columns", "pad", {{T({3}, {1, 2, 3})}},
         {{"paddings", matrix({{1, 1, 1}})}}, {}, IA,
         "paddings must be a matrix with 2 columns: [1,3]"},
        {"pad CONSTANT paddings rows != rank", "pad", {{t23()}}, {{"paddings", matrix({{1, 1}})}},
         {}, IA, "The first dimension of paddings must be the rank of inputs[1,2] [2,3]"},
        {"pad REFLECT paddings rows != rank", "pad", {{t23()}},
         {{"paddings", matrix({{1, 1}})}, {"mode", "REFLECT"}}, {}, IA,
         "The first dimension of paddings must be the rank of inputs[1,2], [2,3]"},
        {"pad a scalar, CONSTANT", "pad", {{T({}, {5})}}, {{"paddings", ilist({})}}, {{{}, {5}}}},
        {"pad a scalar, REFLECT", "pad", {{T({}, {5})}},
         {{"paddings", ilist({})}, {"mode", "REFLECT"}}, {{{}, {5}}}},
        {"pad REFLECT rank 6", "pad", {{iota({1, 1, 1, 1, 1, 2})}},
         {{"paddings", matrix({{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {1, 1}})},
          {"mode", "REFLECT"}},
         {}, ErrorCode::Unimplemented, "inputs rank not in [0,5]: 6"},
        {"pad CONSTANT rank 6", "pad", {{iota({1, 1, 1, 1, 1, 2})}},
         {{"paddings", matrix({{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {1, 1}})}},
         {{{1, 1, 1, 1, 1, 4}, {0, 0, 1, 0}}}},
        {"pad constant_values a list", "pad", {{T({1}, {1})}},
         {{"paddings", matrix({{1, 0}})}, {"constant_values", ilist({1, 2})}}, {}, IA,
         "constant_values must be a scalar. Found: [2]"},
        {"pad string constant on int32", "pad", {{T({1}, {1})}},
         {{"paddings", matrix({{1, 0}})}, {"constant_values", "x"}}, {}, IA,
         "Cannot convert 'x' to EagerTensor of dtype int32"},
        {"pad constant out of int8", "pad", {{ints(DType::Int8, {1}, {1})}},
         {{"paddings", matrix({{1, 0}})}, {"constant_values", 300}}, {}, IA,
         "constant_values 300 does not fit the tensor's dtype int8"},

        // ---- concat (section 6, Engine decision 5; seed 004; erratum 27)
        {"concat axis 0 (seed)", "concat", {{t23(), t23b()}}, {{"axis", 0}},
         {{{4, 3}, range(1, 13)}}},
        {"concat axis 1 (seed)", "concat", {{t23(), t23b()}}, {{"axis", 1}},
         {{{2, 6}, {1, 2, 3, 7, 8, 9, 4, 5, 6, 10, 11, 12}}}},
        {"concat axis -1", "concat", {{t23(), t23b()}}, {{"axis", -1}},
         {{{2, 6}, {1, 2, 3, 7, 8, 9, 4, 5, 6, 10, 11, 12}}}},
        {"concat 1.x name concat_dim (erratum 27)", "concat", {{t23(), t23b()}},
         {{"concat_dim", 0}}, {{{4, 3}, range(1, 13)}}},
        {"concat axis -3", "concat", {{t23(), t23b()}}, {{"axis", -3}}, {}, IA,
         "ConcatOp : Expected concatenating dimensions in the range [-2, 2), but got -3"},
        {"concat an empty input", "concat", {{iota({0, 3}), t23()}}, {{"axis", 0}},
         {{{2, 3}, {1, 2, 3, 4, 5, 6}}}},
        {"concat dims mismatch", "concat", {{t23(), iota({2, 2})}}, {{"axis", 0}}, {}, IA,
         "ConcatOp : Dimensions of inputs should match: shape[0] = [2,3] vs. shape[1] = [2,2]"},
        {"concat ranks mismatch", "concat", {{t23(), iota({3})}}, {{"axis", 0}}, {}, IA,
         "ConcatOp : Ranks of all input tensors should match: shape[0] = [2,3] vs. shape[1] = [3]"},
        {"concat scalars", "concat", {{T({}, {1}), T({}, {2})}}, {{"axis", 0}}, {}, IA,
         "Can't concatenate scalars (use tf.stack instead)"},
        {"concat one tensor, axis unchecked", "concat", {{t23()}}, {{"axis", 99}},
         {{{2, 3}, {1, 2, 3, 4, 5, 6}}}},
        {"concat one scalar", "concat", {{T({}, {4})}}, {{"axis", 0}}, {{{}, {4}}}},
        {"concat axis [0]: a length-1 vector is accepted", "concat", {{t23(), t23b()}},
         {{"axis", ilist({0})}}, {{{4, 3}, range(1, 13)}}},
        {"concat axis [-1] on two inputs", "concat", {{t23(), t23b()}}, {{"axis", ilist({-1})}},
         {{{2, 6}, {1, 2, 3, 7, 8, 9, 4, 5, 6, 10, 11, 12}}}},
        {"concat concat_dim [1] on two inputs", "concat", {{t23(), t23b()}},
         {{"concat_dim", ilist({1})}}, {{{2, 6}, {1, 2, 3, 7, 8, 9, 4, 5, 6, 10, 11, 12}}}},
        {"concat axis [0,1]", "concat", {{t23(), t23b()}}, {{"axis", ilist({0, 1})}}, {}, IA,
         "axis tensor should be a scalar integer, but got shape [2]"},
        {"concat axis []", "concat", {{t23(), t23b()}}, {{"axis", ilist({})}}, {}, IA,
         "axis tensor should be a scalar integer, but got shape [0]"},
        {"concat concat_dim [[0]]", "concat", {{t23(), t23b()}}, {{"concat_dim", matrix({{0}})}},
         {}, IA, "concat_dim tensor should be a scalar integer, but got shape [1,1]"},
        {"concat one tensor, axis [1]", "concat", {{t23()}}, {{"axis", ilist({1})}}, {}, IA,
         "Shape (1,) must have rank 0"},
        {"concat one tensor, axis [[0]]", "concat", {{t23()}}, {{"axis", matrix({{0}})}}, {}, IA,
         "Shape (1, 1) must have rank 0"},
        {"concat no tensors", "concat", {{}}, {{"axis", 0}}, {}, IA,
         "List argument 'values' to 'ConcatV2' Op with length 0 shorter than minimum length 2."},
        {"concat mixed dtypes", "concat", {{t23(), iota({2, 3}, 0, DType::Int64)}}, {{"axis", 0}},
         {}, IA,
         "Tensors in list passed to 'values' of 'ConcatV2' Op have types [int32, int64] that "
         "don't all match."},

        // ---- stack / pack (section 7; seed 004)
        {"stack x,y,z (seed)", "stack", {{T({2}, {1, 4}), T({2}, {2, 5}), T({2}, {3, 6})}}, {},
         {{{3, 2}, {1, 4, 2, 5, 3, 6}}}},
        {"pack x,y,z axis 1 (seed, erratum 27)", "pack",
         {{T({2}, {1, 4}), T({2}, {2, 5}), T({2}, {3, 6})}}, {{"axis", 1}},
         {{{2, 3}, {1, 2, 3, 4, 5, 6}}}},
        {"stack axis -1", "stack", {{T({2}, {1, 4}), T({2}, {2, 5}), T({2}, {3, 6})}},
         {{"axis", -1}}, {{{2, 3}, {1, 2, 3, 4, 5, 6}}}},
        {"stack axis 2", "stack", {{T({2}, {1, 4}), T({2}, {2, 5})}}, {{"axis", 2}}, {}, IA,
         "axis = 2 not in [-2, 2)"},
        {"stack axis -3", "stack", {{T({2}, {1, 4}), T({2}, {2, 5})}}, {{"axis", -3}}, {}, IA,
         "axis = -3 not in [-2, 2)"},
        {"stack scalars", "stack", {{T({}, {1}), T({}, {2})}}, {}, {{{2}, {1, 2}}}},
        {"stack [1,2] and [3]", "stack", {{T({2}, {1, 2}), T({1}, {3})}}, {}, {}, IA,
         "Shapes of all inputs must match: values[0].shape = [2] != values[1].shape = [1]"},
        {"stack one tensor", "stack", {{t23()}}, {{"axis", 1}}, {{{2, 1, 3}, {1, 2, 3, 4, 5, 6}}}},
        {"stack no tensors", "stack", {{}}, {}, {}, IA,
         "List argument 'values' to 'Pack' Op with length 0 shorter than minimum length 1."},
        {"stack rank-8 tensors makes rank 9", "stack", {{iota(Shape(8, 1))}}, {},
         {{Shape(9, 1), {0}}}},
        {"stack rank-32 tensors", "stack", {{iota(Shape(32, 1))}}, {}, {}, IA,
         "stack would make a tensor of rank 33; SliceScope's tensors have rank 0 to 32"},
        {"stack mixed dtypes", "stack", {{T({}, {1}), iota({}, 0, DType::Float32)}}, {}, {}, IA,
         "Tensors in list passed to 'values' of 'Pack' Op have types [int32, float32] that don't "
         "all match."},

        // ---- unstack / unpack (section 8; seed 004)
        {"unstack rows", "unstack", {{t23()}}, {}, {{{3}, {1, 2, 3}}, {{3}, {4, 5, 6}}}},
        {"unpack axis 1 (erratum 27)", "unpack", {{t23()}}, {{"axis", 1}},
         {{{2}, {1, 4}}, {{2}, {2, 5}}, {{2}, {3, 6}}}},
        {"unstack axis -1", "unstack", {{t23()}}, {{"axis", -1}},
         {{{2}, {1, 4}}, {{2}, {2, 5}}, {{2}, {3, 6}}}},
        {"unstack num 3 on axis of 2", "unstack", {{t23()}}, {{"num", 3}}, {}, IA,
         "Input shape axis 0 must equal 3, got shape [2,3]"},
        {"unstack num matching", "unstack", {{t23()}}, {{"num", 2}},
         {{{3}, {1, 2, 3}}, {{3}, {4, 5, 6}}}},
        {"unstack a scalar", "unstack", {{T({}, {1})}}, {}, {}, IA, "axis = 0 not in [0, 0)"},
        {"unstack axis 2 of rank 2", "unstack", {{t23()}}, {{"axis", 2}}, {}, IA,
         "axis = 2 not in [-2, 2)"},
        {"unstack an empty axis", "unstack", {{iota({0, 3})}}, {}, {}},
        {"unstack num -1 (attr minimum)", "unstack", {{t23()}}, {{"num", -1}}, {}, IA,
         "Value for attr 'num' of -1 must be at least minimum 0"},
        {"unpack num -1 before the axis check", "unpack", {{T({}, {1})}}, {{"num", -1}}, {}, IA,
         "Value for attr 'num' of -1 must be at least minimum 0"},

        // ---- reverse_sequence (section 9; seed 004 with erratum 15)
        {"reverse_sequence lengths [3,0]", "reverse_sequence", {{iota({2, 4})}, {T({2}, {3, 0})}},
         {{"seq_axis", 1}}, {{{2, 4}, {2, 1, 0, 3, 4, 5, 6, 7}}}},
        {"reverse_sequence seq 0 batch 1", "reverse_sequence",
         {{iota({4, 3})}, {T({3}, {4, 1, 2})}}, {{"seq_axis", 0}, {"batch_axis", 1}},
         {{{4, 3}, {9, 1, 5, 6, 4, 2, 3, 7, 8, 0, 10, 11}}}},
        {"reverse_sequence length past the dim", "reverse_sequence",
         {{iota({2, 4})}, {T({2}, {5, 0})}}, {{"seq_axis", 1}}, {}, IA,
         "seq_lens(0) > input.dims(1)"},
        {"reverse_sequence seed 1 (erratum 15: L-1::-1, row 3 from 5)", "reverse_sequence",
         {{iota({4, 8})}, {T({4}, {7, 2, 3, 5})}}, {{"seq_dim", 1}, {"batch_dim", 0}},
         {{{4, 8}, {6, 5, 4, 3, 2, 1, 0, 7, 9, 8, 10, 11, 12, 13, 14, 15, 18, 17, 16, 19, 20, 21,
                    22, 23, 28, 27, 26, 25, 24, 29, 30, 31}}}},
        {"reverse_sequence seed 2 (erratum 15)", "reverse_sequence",
         {{iota({8, 1, 4})}, {T({4}, {7, 2, 3, 5})}}, {{"seq_dim", 0}, {"batch_dim", 2}},
         {{{8, 1, 4}, {24, 5, 10, 19, 20, 1, 6, 15, 16, 9, 2, 11, 12, 13, 14, 7, 8, 17, 18, 3, 4,
                       21, 22, 23, 0, 25, 26, 27, 28, 29, 30, 31}}}},
        {"reverse_sequence full length allowed (erratum 15a)", "reverse_sequence",
         {{iota({1, 3})}, {iota({1}, 3, DType::Int64)}}, {{"seq_axis", 1}}, {{{1, 3}, {2, 1, 0}}}},
        {"reverse_sequence negative batch_dim", "reverse_sequence",
         {{iota({2, 4})}, {T({2}, {1, 1})}}, {{"seq_axis", -1}, {"batch_axis", -1}}, {}, IA,
         "Invalid batch_dim -1"},
        {"reverse_sequence negative seq_dim", "reverse_sequence",
         {{iota({2, 4})}, {T({2}, {1, 1})}}, {{"seq_axis", -1}}, {}, IA, "Invalid seq_dim -1"},
        {"reverse_sequence lengths 2-D", "reverse_sequence", {{iota({2, 4})}, {T({2, 1}, {1, 1})}},
         {{"seq_axis", 1}}, {}, IA, "seq_lengths must be 1-dim, not 2"},
        {"reverse_sequence same axes", "reverse_sequence", {{iota({2, 4})}, {T({2}, {1, 1})}},
         {{"seq_axis", 1}, {"batch_axis", 1}}, {}, IA, "batch_dim == seq_dim == 1"},
        {"reverse_sequence seq_dim past rank", "reverse_sequence",
         {{iota({2, 4})}, {T({2}, {1, 1})}}, {{"seq_axis", 2}}, {}, IA,
         "seq_dim must be < input rank ( 2 vs. 2)"},
        {"reverse_sequence batch_dim past rank", "reverse_sequence",
         {{iota({2, 4})}, {T({2}, {1, 1})}}, {{"seq_axis", 1}, {"batch_axis", 3}}, {}, IA,
         "batch_dim must be < input rank ( 3 vs. 2)"},
        {"reverse_sequence wrong count", "reverse_sequence", {{iota({2, 4})}, {T({3}, {1, 1, 1})}},
         {{"seq_axis", 1}}, {}, IA, "Length of seq_lengths != input.dims(0), (3 vs. 2)"},
        {"reverse_sequence negative length", "reverse_sequence",
         {{iota({2, 4})}, {T({2}, {1, -1})}}, {{"seq_axis", 1}}, {}, IA, "seq_lens(1) < 0"},
        {"reverse_sequence float lengths", "reverse_sequence",
         {{iota({2, 4})}, {iota({2}, 0, DType::Float32)}}, {{"seq_axis", 1}}, {}, IA,
         "Value passed to parameter 'seq_lengths' has DataType float32 not in list of allowed "
         "values: int32, int64"},
        {"reverse_sequence rank 6 (InvalidArgument in TF)", "reverse_sequence",
         {{iota({2, 2, 1, 1, 1, 1})}, {T({2}, {1, 1})}}, {{"seq_axis", 1}}, {}, IA,
         "ReverseSequenceOp : Unhandled input dimensions: 6"},

        // ---- reverse (section 10; seed 004 with erratum 16)
        {"reverse axis [3]", "reverse", {{iota({1, 2, 3, 4})}}, {{"axis", ilist({3})}},
         {{{1, 2, 3, 4}, {3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 19, 18, 17, 16,
                          23, 22, 21, 20}}}},
        {"reverse dims [F,F,F,T] (seed)", "reverse", {{iota({1, 2, 3, 4})}},
         {{"dims", bools({false, false, false, true})}},
         {{{1, 2, 3, 4}, {3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 19, 18, 17, 16,
                          23, 22, 21, 20}}}},
        {"reverse dims [F,T,F,F] (seed, erratum 16)", "reverse", {{iota({1, 2, 3, 4})}},
         {{"dims", bools({false, true, false, false})}},
         {{{1, 2, 3, 4}, {12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 0, 1, 2, 3, 4, 5, 6, 7,
                          8, 9, 10, 11}}}},
        {"reverse dims [F,F,T,F] (seed, erratum 16)", "reverse", {{iota({1, 2, 3, 4})}},
         {{"dims", bools({false, false, true, false})}},
         {{{1, 2, 3, 4}, {8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 20, 21, 22, 23, 16, 17, 18, 19,
                          12, 13, 14, 15}}}},
        {"reverse axis [1]", "reverse", {{iota({1, 2, 3, 4})}}, {{"axis", ilist({1})}},
         {{{1, 2, 3, 4}, {12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 0, 1, 2, 3, 4, 5, 6, 7,
                          8, 9, 10, 11}}}},
        {"reverse axis [-2]", "reverse", {{iota({1, 2, 3, 4})}}, {{"axis", ilist({-2})}},
         {{{1, 2, 3, 4}, {8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 20, 21, 22, 23, 16, 17, 18, 19,
                          12, 13, 14, 15}}}},
        {"reverse axis [1,-3]", "reverse", {{iota({1, 2, 3, 4})}}, {{"axis", ilist({1, -3})}}, {},
         IA, "axis 1 specified more than once."},
        {"reverse axis [4]", "reverse", {{iota({1, 2, 3, 4})}}, {{"axis", ilist({4})}}, {}, IA,
         "'axis'[0] = 4 is out of valid range [0, 3"},
        {"reverse axis [0,-5]", "reverse", {{iota({1, 2, 3, 4})}}, {{"axis", ilist({0, -5})}}, {},
         IA, "'axis'[1] = -5 is out of valid range [0, 3"},
        {"reverse axis []", "reverse", {{t23()}}, {{"axis", ilist({})}},
         {{{2, 3}, {1, 2, 3, 4, 5, 6}}}},
        {"reverse axis [0,1]", "reverse", {{t23()}}, {{"axis", ilist({0, 1})}},
         {{{2, 3}, {6, 5, 4, 3, 2, 1}}}},
        {"reverse a scalar, axis unchecked", "reverse", {{T({}, {5})}}, {{"axis", ilist({7})}},
         {{{}, {5}}}},
        {"reverse an empty tensor, axis unchecked", "reverse", {{iota({0, 3})}},
         {{"axis", ilist({7})}}, {{{0, 3}, {}}}},
        {"reverse axis 2-D", "reverse", {{t23()}}, {{"axis", matrix({{0}})}}, {}, IA,
         "'dims' must be 1-dimension, not 2"},
        {"reverse axis scalar", "reverse", {{t23()}}, {{"axis", 0}}, {}, IA,
         "'dims' must be 1-dimension, not 0"},
        {"reverse dims count", "reverse", {{iota({1, 2, 3, 4})}}, {{"dims", bools({true, false})}},
         {}, IA,
         "'dims' must have the same number of values as 'input' has dimensions. 'input' has "
         "4'dims' has 2 values"},
        {"reverse dims on an empty tensor is checked", "reverse", {{iota({0, 3})}},
         {{"dims", bools({true})}}, {}, IA,
         "'dims' must have the same number of values as 'input' has dimensions. 'input' has "
         "2'dims' has 1 values"},
        {"reverse dims on a scalar", "reverse", {{T({}, {5})}}, {{"dims", bools({true})}},
         {{{}, {5}}}},

        // ---- transpose (section 11; seed 004)
        {"transpose default (seed)", "transpose", {{t23()}}, {}, {{{3, 2}, {1, 4, 2, 5, 3, 6}}}},
        {"transpose perm [1,0] (seed)", "transpose", {{t23()}}, {{"perm", ilist({1, 0})}},
         {{{3, 2}, {1, 4, 2, 5, 3, 6}}}},
        {"transpose perm [0,2,1] (seed)", "transpose", {{iota({2, 2, 3}, 1)}},
         {{"perm", ilist({0, 2, 1})}}, {{{2, 3, 2}, {1, 4, 2, 5, 3, 6, 7, 10, 8, 11, 9, 12}}}},
        {"transpose default of rank 3", "transpose", {{iota({2, 1, 3})}}, {},
         {{{3, 1, 2}, {0, 3, 1, 4, 2, 5}}}},
        {"transpose perm [0,-1,1]", "transpose", {{iota({2, 2, 3})}}, {{"perm", ilist({0, -1, 1})}},
         {}, IA, "-1 is out of range [0 .. 3)"},
        {"transpose perm [0,0,1]", "transpose", {{iota({2, 2, 3})}}, {{"perm", ilist({0, 0, 1})}},
         {}, IA, "2 is missing from {0,0,1}."},
        {"transpose perm 2-D", "transpose", {{t23()}}, {{"perm", matrix({{1, 0}})}}, {}, IA,
         "perm must be rank 1, got shape [1,2]"},
        {"transpose perm scalar", "transpose", {{t23()}}, {{"perm", 1}}, {}, IA,
         "perm must be rank 1, got shape []"},
        {"transpose perm too short", "transpose", {{t23()}}, {{"perm", ilist({0})}}, {}, IA,
         "transpose expects a vector of size 2. But input(1) is a vector of size 1"},
        {"transpose a scalar", "transpose", {{T({}, {3})}}, {{"perm", ilist({})}}, {{{}, {3}}}},

        // ---- rank: tensors of rank 0 to 32; each kernel keeps its own limit (TensorFlow 2.21)
        {"pad CONSTANT rank 8", "pad", {{iota(Shape(8, 1))}}, {{"paddings", matrix(std::vector<std::vector<std::int64_t>>(8, {0, 1}))}},
         {{Shape(8, 2), {}}}},
        {"pad CONSTANT rank 9", "pad", {{iota(Shape(9, 1))}}, {{"paddings", matrix(std::vector<std::vector<std::int64_t>>(9, {0, 0}))}},
         {}, ErrorCode::Unimplemented, "inputs rank not in [0,8]: 9"},
        {"pad REFLECT rank 6", "pad", {{iota(Shape(6, 2))}}, {{"paddings", matrix(std::vector<std::vector<std::int64_t>>(6, {0, 0}))}, {"mode", "REFLECT"}},
         {}, ErrorCode::Unimplemented, "inputs rank not in [0,5]: 6"},
        // ---- roll (roll_op.cc; NumPy's np.roll where TensorFlow agrees)
        {"roll shift 1 axis 0", "roll", {{iota({3, 4})}}, {{"shift", 1}, {"axis", 0}},
         {{{3, 4}, {8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6, 7}}}},
        {"roll shift [1,-1] axis [0,1]", "roll", {{iota({3, 4})}},
         {{"shift", ilist({1, -1})}, {"axis", ilist({0, 1})}},
         {{{3, 4}, {9, 10, 11, 8, 1, 2, 3, 0, 5, 6, 7, 4}}}},
        {"roll one axis twice: the shifts add up", "roll", {{iota({3, 4})}},
         {{"shift", ilist({2, 3})}, {"axis", ilist({1, 1})}},
         {{{3, 4}, {3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10}}}},
        {"roll shift -7 axis -2", "roll", {{iota({2, 3, 4})}},
         {{"shift", ilist({-7})}, {"axis", ilist({-2})}},
         {{{2, 3, 4}, {4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 16, 17, 18, 19, 20, 21, 22, 23, 12,
                       13, 14, 15}}}},
        {"roll shift 2^32+2 keeps its low 32 bits (NumPy: 0)", "roll", {{iota({3})}},
         {{"shift", std::int64_t(4294967298)}, {"axis", 0}}, {{{3}, {1, 2, 0}}}},
        {"roll axis 2^32 keeps its low 32 bits", "roll", {{iota({3})}},
         {{"shift", 1}, {"axis", std::int64_t(4294967296)}}, {{{3}, {2, 0, 1}}}},
        {"roll an empty tensor", "roll", {{iota({0, 3})}}, {{"shift", 1}, {"axis", 1}},
         {{{0, 3}, {}}}},
        {"roll a scalar", "roll", {{T({}, {5})}}, {{"shift", 1}, {"axis", 0}}, {}, IA,
         "input must be 1-D or higher"},
        {"roll shift 2-D", "roll", {{iota({3})}}, {{"shift", matrix({{1}})}, {"axis", matrix({{0}})}},
         {}, IA, "shift must be a scalar or a 1-D vector. Found: [1,1]"},
        {"roll axis 2-D", "roll", {{iota({3})}}, {{"shift", 1}, {"axis", matrix({{0}})}}, {}, IA,
         "axis must be a scalar or a 1-D vector. Found: [1,1]"},
        {"roll shift scalar, axis [0]", "roll", {{iota({3})}}, {{"shift", 1}, {"axis", ilist({0})}},
         {}, IA, "shift and axis must have the same size"},
        {"roll axis -3 of rank 2: named after adding the rank", "roll", {{iota({3, 4})}},
         {{"shift", 1}, {"axis", -3}}, {}, IA, "axis -1 is out of range"},
        {"roll axis 2 of rank 2", "roll", {{iota({3, 4})}}, {{"shift", 1}, {"axis", 2}}, {}, IA,
         "axis 2 is out of range"},
        {"reverse rank 9", "reverse", {{iota({1, 1, 1, 1, 1, 1, 1, 1, 3})}}, {{"axis", ilist({8})}},
         {}, ErrorCode::Unimplemented, "reverse is not implemented for tensors of rank > 8."},
        {"reverse rank 9 empty: returned before the check", "reverse", {{iota({1, 1, 1, 1, 1, 1, 1, 1, 0})}},
         {{"axis", ilist({8})}}, {{{1, 1, 1, 1, 1, 1, 1, 1, 0}, {}}}},
        {"reverse rank 8", "reverse", {{iota({1, 1, 1, 1, 1, 1, 1, 3})}}, {{"axis", ilist({7})}},
         {{{1, 1, 1, 1, 1, 1, 1, 3}, {2, 1, 0}}}},
        {"reverse_sequence rank 6", "reverse_sequence", {{iota({2, 2, 1, 1, 1, 1})}, {T({2}, {1, 1})}}, {{"seq_axis", 1}, {"batch_axis", 0}},
         {}, IA, "ReverseSequenceOp : Unhandled input dimensions: 6"},
        {"tile rank 10 (no limit)", "tile", {{iota(Shape(10, 1))}}, {{"multiples", ilist({1, 1, 1, 1, 1, 1, 1, 1, 1, 2})}},
         {{{1, 1, 1, 1, 1, 1, 1, 1, 1, 2}, {0, 0}}}},
        {"transpose rank 10 (no limit)", "transpose", {{iota({2, 1, 1, 1, 1, 1, 1, 1, 1, 3})}},
         {{"perm", ilist({9, 1, 2, 3, 4, 5, 6, 7, 8, 0})}}, {{{3, 1, 1, 1, 1, 1, 1, 1, 1, 2}, {0, 3, 1, 4, 2, 5}}}},
        {"concat rank 10 (no limit)", "concat", {{iota(Shape(10, 1)), iota(Shape(10, 1), 5)}}, {{"axis", 9}},
         {{{1, 1, 1, 1, 1, 1, 1, 1, 1, 2}, {0, 5}}}},
        {"slice rank 9: identity", "slice", {{iota({1, 1, 1, 1, 1, 1, 1, 2, 3})}},
         {{"begin", ilist({0, 0, 0, 0, 0, 0, 0, 0, 0})}, {"size", ilist({-1, -1, -1, -1, -1, -1, -1, -1, -1})}},
         {{{1, 1, 1, 1, 1, 1, 1, 2, 3}, {0, 1, 2, 3, 4, 5}}}},
        {"slice rank 9: general kernel", "slice", {{iota({1, 1, 1, 1, 1, 1, 1, 2, 3})}},
         {{"begin", ilist({0, 0, 0, 0, 0, 0, 0, 0, 1})}, {"size", ilist({-1, -1, -1, -1, -1, -1, -1, -1, -1})}},
         {}, ErrorCode::Unimplemented, "SliceOp : Unhandled input dimensions"},
        {"slice rank 9: dimension-0 rows of 32 bytes", "slice", {{iota({2, 1, 1, 1, 1, 1, 1, 1, 8})}},
         {{"begin", ilist({1, 0, 0, 0, 0, 0, 0, 0, 0})}, {"size", ilist({1, -1, -1, -1, -1, -1, -1, -1, -1})}},
         {{{1, 1, 1, 1, 1, 1, 1, 1, 8}, {8, 9, 10, 11, 12, 13, 14, 15}}}},
        {"slice rank 9: nothing selected", "slice", {{iota({1, 1, 1, 1, 1, 1, 1, 2, 3})}},
         {{"begin", ilist({0, 0, 0, 0, 0, 0, 0, 0, 1})}, {"size", ilist({-1, -1, -1, -1, -1, -1, -1, -1, 0})}},
         {{{1, 1, 1, 1, 1, 1, 1, 2, 0}, {}}}},
    };
    // clang-format on
    return all;
}

// ---------------------------------------------------------------------------------------------
// Differential cases: the engine's inputs and attributes, and what NumPy is told.

struct DiffCase
{
    QJsonObject request; // for tst_shape_ops.py
    std::vector<std::vector<Tensor>> inputs;
    Attrs attrs;
};

class Gen
{
public:
    explicit Gen(std::uint64_t seed) : m_rng(seed) {}
    std::int64_t between(std::int64_t lo, std::int64_t hi)
    {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(m_rng);
    }
    bool chance(int percent) { return between(1, 100) <= percent; }
    // Small dimensions, now and then zero.
    Shape shape(int rank, std::int64_t minDim = 0)
    {
        Shape s;
        for (int i = 0; i < rank; ++i)
            s.push_back(minDim == 0 && chance(10) ? 0
                                                  : between(std::max<std::int64_t>(minDim, 1), 4));
        return s;
    }
    std::mt19937_64& rng() { return m_rng; }

private:
    std::mt19937_64 m_rng;
};

QJsonArray json(const std::vector<std::int64_t>& v)
{
    QJsonArray a;
    for (std::int64_t x : v)
        a.append(qint64(x));
    return a;
}

// Input k is arange + 100000 * k, as in the python script.
DiffCase withInputs(const char* op, const std::vector<Shape>& shapes, bool asList)
{
    DiffCase c;
    c.request["op"] = op;
    QJsonArray js;
    std::vector<Tensor> tensors;
    for (std::size_t k = 0; k < shapes.size(); ++k) {
        js.append(json(shapes[k]));
        tensors.push_back(iota(shapes[k], std::int64_t(k) * 100000));
    }
    c.request["shapes"] = js;
    if (asList)
        c.inputs = {tensors};
    else
        for (const Tensor& t : tensors)
            c.inputs.push_back({t});
    return c;
}

DiffCase splitCase(Gen& g)
{
    const int r = int(g.between(1, 5));
    const Shape shape = g.shape(r);
    DiffCase c = withInputs("split", {shape}, false);
    const std::int64_t axis = g.between(-r, r - 1);
    const std::int64_t d = shape[std::size_t(axis < 0 ? axis + r : axis)];
    c.request["axis"] = qint64(axis);
    c.attrs["axis"] = axis;
    if (g.chance(50)) {
        std::vector<std::int64_t> divisors;
        for (std::int64_t n = 1; n <= std::max<std::int64_t>(d, 3); ++n)
            if (d % n == 0) divisors.push_back(n);
        const std::int64_t n =
            divisors[std::size_t(g.between(0, std::int64_t(divisors.size()) - 1))];
        c.request["num"] = qint64(n);
        c.attrs["num_or_size_splits"] = n;
    } else {
        // Up to three random cuts of [0, d]: one to four pieces, empty ones included.
        std::vector<std::int64_t> cuts{0, d};
        for (std::int64_t k = g.between(0, 3); k > 0; --k)
            cuts.push_back(g.between(0, d));
        std::sort(cuts.begin(), cuts.end());
        std::vector<std::int64_t> sizes;
        for (std::size_t k = 1; k < cuts.size(); ++k)
            sizes.push_back(cuts[k] - cuts[k - 1]);
        c.request["sizes"] = json(sizes);
        std::vector<std::int64_t> given = sizes;
        if (sizes.size() > 1 && g.chance(50))
            given[std::size_t(g.between(0, std::int64_t(sizes.size()) - 1))] = -1;
        c.attrs["num_or_size_splits"] = Attr::ints(given);
    }
    return c;
}

DiffCase tileCase(Gen& g)
{
    const int r = int(g.between(0, 5));
    DiffCase c = withInputs("tile", {g.shape(r)}, false);
    std::vector<std::int64_t> m;
    for (int i = 0; i < r; ++i)
        m.push_back(g.chance(10) ? 0 : g.between(1, r > 3 ? 2 : 3));
    c.request["multiples"] = json(m);
    c.attrs["multiples"] = Attr::ints(m);
    return c;
}

DiffCase padCase(Gen& g)
{
    const int kind = int(g.between(0, 2));
    const char* modes[] = {"constant", "reflect", "symmetric"};
    const int r = int(g.between(0, 5));
    const Shape shape = g.shape(r, kind == 1 ? 1 : 0); // REFLECT needs every dimension >= 1
    DiffCase c = withInputs("pad", {shape}, false);
    Attr::List rows;
    QJsonArray js;
    for (int i = 0; i < r; ++i) {
        const std::int64_t d = shape[std::size_t(i)];
        const std::int64_t most = kind == 0 ? 3 : (kind == 1 ? d - 1 : d);
        const std::int64_t b = g.between(0, most), a = g.between(0, most);
        rows.push_back(Attr::ints({b, a}));
        js.append(json({b, a}));
    }
    c.attrs["paddings"] = rows;
    c.attrs["mode"] =
        g.chance(50) ? std::string(modes[kind]) : QByteArray(modes[kind]).toUpper().toStdString();
    c.request["paddings"] = js;
    c.request["mode"] = modes[kind];
    const std::int64_t constant = g.between(-9, 9);
    c.request["constant"] = qint64(constant);
    c.attrs["constant_values"] = constant;
    return c;
}

DiffCase concatCase(Gen& g)
{
    const int r = int(g.between(1, 5));
    const Shape base = g.shape(r);
    const std::int64_t axis = g.between(-r, r - 1);
    std::vector<Shape> shapes;
    for (std::int64_t k = g.between(1, 4); k > 0; --k) {
        Shape s = base;
        s[std::size_t(axis < 0 ? axis + r : axis)] = g.chance(15) ? 0 : g.between(1, 3);
        shapes.push_back(s);
    }
    DiffCase c = withInputs("concat", shapes, true);
    c.request["axis"] = qint64(axis);
    c.attrs["axis"] = axis;
    return c;
}

DiffCase stackCase(Gen& g)
{
    const int r = int(g.between(0, 4));
    const Shape shape = g.shape(r);
    DiffCase c = withInputs("stack", std::vector<Shape>(std::size_t(g.between(1, 4)), shape), true);
    const std::int64_t axis = g.between(-(r + 1), r);
    c.request["axis"] = qint64(axis);
    c.attrs["axis"] = axis;
    return c;
}

DiffCase unstackCase(Gen& g)
{
    const int r = int(g.between(1, 5));
    DiffCase c = withInputs("unstack", {g.shape(r)}, false);
    const std::int64_t axis = g.between(-r, r - 1);
    c.request["axis"] = qint64(axis);
    c.attrs["axis"] = axis;
    return c;
}

DiffCase reverseSequenceCase(Gen& g)
{
    const int r = int(g.between(2, 5));
    Shape shape = g.shape(r);
    const std::int64_t seq = g.between(0, r - 1);
    std::int64_t batch = g.between(0, r - 2);
    if (batch >= seq) ++batch;
    // Long sequences now and then, so that both plan forms (pieces and rows) are exercised.
    if (g.chance(30)) shape[std::size_t(seq)] = g.between(60, 140);
    DiffCase c = withInputs("reverse_sequence", {shape}, false);
    std::vector<std::int64_t> lengths;
    for (std::int64_t k = 0; k < shape[std::size_t(batch)]; ++k)
        lengths.push_back(g.chance(30) ? shape[std::size_t(seq)]
                                       : g.between(0, shape[std::size_t(seq)]));
    if (g.chance(30)) // runs of equal lengths
        std::fill(lengths.begin(), lengths.end(), lengths.empty() ? 0 : lengths[0]);
    c.inputs.push_back(
        {iota({std::int64_t(lengths.size())}, 0, g.chance(50) ? DType::Int32 : DType::Int64)});
    for (std::size_t k = 0; k < lengths.size(); ++k)
        c.inputs[1][0].setFromInt(std::int64_t(k), lengths[k]);
    c.request["lengths"] = json(lengths);
    c.request["seq"] = qint64(seq);
    c.request["batch"] = qint64(batch);
    c.attrs["seq_axis"] = seq;
    c.attrs["batch_axis"] = batch;
    return c;
}

DiffCase reverseCase(Gen& g)
{
    const int r = int(g.between(1, 5));
    DiffCase c = withInputs("reverse", {g.shape(r)}, false);
    std::vector<std::int64_t> axes;
    std::vector<bool> dims;
    for (int k = 0; k < r; ++k) {
        dims.push_back(g.chance(50));
        if (dims.back()) axes.push_back(k);
    }
    c.request["axes"] = json(axes);
    if (g.chance(30)) {
        Attr::List flags;
        for (bool f : dims)
            flags.emplace_back(f);
        c.attrs["dims"] = flags;
    } else {
        std::vector<std::int64_t> spelled;
        for (std::int64_t a : axes)
            spelled.push_back(g.chance(50) ? a - r : a);
        std::shuffle(spelled.begin(), spelled.end(), g.rng());
        c.attrs["axis"] = Attr::ints(spelled);
    }
    return c;
}

// Now and then rank 13 with every dimension of size 2 rolled: past the box form (4,096 boxes),
// the plan lists one source per element.
DiffCase rollCase(Gen& g)
{
    const bool wide = g.chance(5);
    const int r = wide ? 13 : int(g.between(1, 5));
    DiffCase c = withInputs("roll", {wide ? Shape(13, 2) : g.shape(r)}, false);
    std::vector<std::int64_t> shifts, axes;
    for (std::int64_t k = wide ? 13 : g.between(0, 4); k > 0; --k) {
        shifts.push_back(wide ? 1 : g.between(-20, 20));
        axes.push_back(wide ? k - 1 : g.between(-r, r - 1));
    }
    c.request["shift"] = json(shifts);
    c.request["axis"] = json(axes);
    if (shifts.size() == 1 && g.chance(50)) {
        c.attrs["shift"] = shifts[0];
        c.attrs["axis"] = axes[0];
    } else {
        c.attrs["shift"] = Attr::ints(shifts);
        c.attrs["axis"] = Attr::ints(axes);
    }
    return c;
}

DiffCase transposeCase(Gen& g)
{
    const int r = int(g.between(0, 6));
    DiffCase c = withInputs("transpose", {g.shape(r)}, false);
    if (g.chance(80)) {
        std::vector<std::int64_t> perm(static_cast<std::size_t>(r));
        std::iota(perm.begin(), perm.end(), 0);
        std::shuffle(perm.begin(), perm.end(), g.rng());
        c.request["perm"] = json(perm);
        c.attrs["perm"] = Attr::ints(perm);
    }
    return c;
}

std::string describe(const DiffCase& c)
{
    return QJsonDocument(c.request).toJson(QJsonDocument::Compact).toStdString();
}

std::vector<std::int64_t> jsonInts(const QJsonArray& a)
{
    std::vector<std::int64_t> v;
    for (const QJsonValue& x : a)
        v.push_back(x.toInteger());
    return v;
}

// One op run on every dtype: the plan must not depend on it (same sources as int32), and runOp
// checks each value against its source.
struct DtypeCase
{
    const char* name;
    const char* op;
    std::vector<Shape> shapes; // one input each, or the list of a list input
    bool list;
    Attrs attrs;
    std::vector<std::int64_t> seqLengths = {}; // reverse_sequence's int64 second input
};

const std::vector<DtypeCase>& dtypeCases()
{
    static const std::vector<DtypeCase> all = {
        {"split", "split", {{4, 3}}, false, {{"num_or_size_splits", ilist({1, -1})}}},
        {"tile", "tile", {{2, 3}}, false, {{"multiples", ilist({2, 2})}}},
        {"pad CONSTANT", "pad", {{2, 3}}, false, {{"paddings", matrix({{1, 0}, {2, 1}})}}},
        {"pad REFLECT",
         "pad",
         {{2, 3}},
         false,
         {{"paddings", matrix({{1, 1}, {2, 2}})}, {"mode", "REFLECT"}}},
        {"pad SYMMETRIC",
         "pad",
         {{2, 3}},
         false,
         {{"paddings", matrix({{2, 2}, {3, 0}})}, {"mode", "SYMMETRIC"}}},
        {"concat", "concat", {{2, 3}, {1, 3}}, true, {{"axis", 0}}},
        {"stack", "stack", {{2, 3}, {2, 3}}, true, {{"axis", 1}}},
        {"unstack", "unstack", {{2, 3}}, false, {{"axis", 1}}},
        {"reverse_sequence", "reverse_sequence", {{2, 3}}, false, {{"seq_axis", 1}}, {3, 2}},
        {"reverse", "reverse", {{2, 3}}, false, {{"axis", ilist({0, 1})}}},
        {"roll", "roll", {{2, 3}}, false, {{"shift", ilist({1, -1})}, {"axis", ilist({0, 1})}}},
        {"transpose", "transpose", {{2, 3, 2}}, false, {{"perm", ilist({2, 0, 1})}}},
    };
    return all;
}

// tf.pad's constant_values that tf.convert_to_tensor(value, dtype) refuses, in TensorFlow's
// words (its C++ dtype names: float, double).
struct PadConstantError
{
    const char* name;
    DType dtype;
    Attr constant;
    std::string message;
};

const std::vector<PadConstantError>& padConstantErrorCases()
{
    // clang-format off
    static const std::vector<PadConstantError> all = {
        {"int32, 1.5", DType::Int32, 1.5, "Cannot convert 1.5 to EagerTensor of dtype int32"},
        {"int16, 2.5", DType::Int16, 2.5, "Cannot convert 2.5 to EagerTensor of dtype int16"},
        {"int32, 1e300", DType::Int32, 1e300,
         "Cannot convert 1e+300 to EagerTensor of dtype int32"},
        {"int8, true", DType::Int8, true, "Cannot convert True to EagerTensor of dtype int8"},
        {"bool, int 3", DType::Bool, 3, "Cannot convert 3 to EagerTensor of dtype bool"},
        {"bool, 0.5", DType::Bool, 0.5, "Cannot convert 0.5 to EagerTensor of dtype bool"},
        {"float32, \"x\"", DType::Float32, "x", "Cannot convert 'x' to EagerTensor of dtype float"},
        {"float64, \"it's\"", DType::Float64, "it's",
         "Cannot convert \"it's\" to EagerTensor of dtype double"},
        {"string, 5", DType::String, 5, "Cannot convert 5 to EagerTensor of dtype string"},
        {"string, 2.5", DType::String, 2.5, "Cannot convert 2.5 to EagerTensor of dtype string"},
        {"string, true", DType::String, true, "Cannot convert True to EagerTensor of dtype string"},
        {"int8, 300 does not fit", DType::Int8, 300,
         "constant_values 300 does not fit the tensor's dtype int8"},
    };
    // clang-format on
    return all;
}

std::vector<std::vector<Tensor>> filledInputs(const DtypeCase& c, DType dtype)
{
    std::vector<Tensor> tensors;
    for (const Shape& s : c.shapes)
        tensors.push_back(makeFilled(dtype, s, Fill::Arange, 0, Limits{}));
    if (c.list) return {tensors};
    std::vector<std::vector<Tensor>> inputs;
    for (const Tensor& t : tensors)
        inputs.push_back({t});
    if (!c.seqLengths.empty())
        inputs.push_back(
            {Tensor::fromInts(DType::Int64, {std::int64_t(c.seqLengths.size())}, c.seqLengths)});
    return inputs;
}

const std::vector<DType> kAllDtypes = {DType::Bool,    DType::Int8,    DType::UInt8,
                                       DType::Int16,   DType::Int32,   DType::Int64,
                                       DType::Float32, DType::Float64, DType::String};

std::int64_t pieceElements(const OutputPlan& out)
{
    std::int64_t n = 0;
    for (const Piece& piece : out.pieces)
        n += std::holds_alternative<AffinePiece>(piece)
                 ? numElements(std::get<AffinePiece>(piece).extents)
                 : std::int64_t(std::get<RowsPiece>(piece).rows.size()) *
                       std::get<RowsPiece>(piece).rowLength;
    return n;
}

} // namespace

class TestShapeOps : public QObject
{
    Q_OBJECT
private slots:
    void examples_data()
    {
        QTest::addColumn<int>("index");
        for (int i = 0; i < int(cases().size()); ++i)
            QTest::newRow(cases()[std::size_t(i)].name) << i;
    }

    void examples()
    {
        QFETCH(int, index);
        const Case& c = cases()[std::size_t(index)];
        if (c.code != ErrorCode::Internal) {
            SS_EXPECT_ERROR(runOp(c.op, c.inputs, c.attrs), c.code, c.message);
            return;
        }
        const OpRun run = runOp(c.op, c.inputs, c.attrs);
        QCOMPARE(run.outputs.size(), c.outputs.size());
        for (std::size_t k = 0; k < c.outputs.size(); ++k) {
            QCOMPARE(shapeString(run.outputs[k].shape()), shapeString(c.outputs[k].shape));
            if (!c.outputs[k].values.empty() || numElements(c.outputs[k].shape) == 0)
                QCOMPARE(values(run.outputs[k]), c.outputs[k].values);
        }
    }

    void differential_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<int>("count");
        for (const char* op : {"split", "tile", "pad", "concat", "stack", "unstack",
                               "reverse_sequence", "reverse", "roll", "transpose"})
            QTest::newRow(op) << QString(op) << 300;
    }

    void differential()
    {
        QFETCH(QString, op);
        QFETCH(int, count);
        const std::map<QString, std::function<DiffCase(Gen&)>> makers = {
            {"split", splitCase},
            {"tile", tileCase},
            {"pad", padCase},
            {"concat", concatCase},
            {"stack", stackCase},
            {"unstack", unstackCase},
            {"reverse_sequence", reverseSequenceCase},
            {"reverse", reverseCase},
            {"roll", rollCase},
            {"transpose", transposeCase},
        };
        Gen g(std::hash<std::string>{}(op.toStdString()));
        std::vector<DiffCase> batch;
        QByteArray requests;
        for (int i = 0; i < count; ++i) {
            batch.push_back(makers.at(op)(g));
            requests += QJsonDocument(batch.back().request).toJson(QJsonDocument::Compact) + '\n';
        }
        QFile script(sourceDir() + "/tests/engine/tst_shape_ops.py");
        QVERIFY2(script.open(QIODevice::ReadOnly), qPrintable(script.fileName()));
        const QList<QByteArray> answers =
            runNumpy(QString::fromUtf8(script.readAll()), requests).split('\n');
        QVERIFY(answers.size() >= count);
        for (int i = 0; i < count; ++i) {
            const DiffCase& c = batch[std::size_t(i)];
            const std::string what = describe(c);
            const QJsonArray expected = QJsonDocument::fromJson(answers[i]).array();
            OpRun run;
            try {
                run = runOp(op.toStdString(), c.inputs, c.attrs);
            } catch (const OpError& e) {
                QFAIL((what + ": " + e.what()).c_str());
            }
            QVERIFY2(run.outputs.size() == std::size_t(expected.size()), what.c_str());
            for (int k = 0; k < expected.size(); ++k) {
                const QJsonObject e = expected[k].toObject();
                QVERIFY2(run.outputs[std::size_t(k)].shape() == jsonInts(e["shape"].toArray()),
                         what.c_str());
                QVERIFY2(values(run.outputs[std::size_t(k)]) == jsonInts(e["data"].toArray()),
                         what.c_str());
            }
        }
    }

    void dtypes_data()
    {
        QTest::addColumn<int>("index");
        for (int i = 0; i < int(dtypeCases().size()); ++i)
            QTest::newRow(dtypeCases()[std::size_t(i)].name) << i;
    }

    void dtypes()
    {
        QFETCH(int, index);
        const DtypeCase& c = dtypeCases()[std::size_t(index)];
        const OpRun reference = runOp(c.op, filledInputs(c, DType::Int32), c.attrs);
        for (DType dtype : kAllDtypes) {
            const std::string label = std::string(c.name) + " as " + std::string(dtypeName(dtype));
            const OpRun run = runOp(c.op, filledInputs(c, dtype), c.attrs);
            QVERIFY2(run.sources == reference.sources, label.c_str());
            for (std::size_t k = 0; k < run.outputs.size(); ++k) {
                QVERIFY2(run.outputs[k].dtype() == dtype, label.c_str());
                QVERIFY2(run.outputs[k].shape() == reference.outputs[k].shape(), label.c_str());
            }
        }
    }

    void padConstants_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<int>("constantKind"); // 0 default, 1 int 3, 2 float 2.5, 3 true, 4 "pad",
                                               // 5 0.0, 6 "", 7 false
        QTest::addColumn<QString>("expected"); // the border element, as text
        QTest::newRow("float32, default 0") << int(DType::Float32) << 0 << "0";
        QTest::newRow("float32, 2.5") << int(DType::Float32) << 2 << "2.5";
        QTest::newRow("float64, int 3") << int(DType::Float64) << 1 << "3";
        QTest::newRow("float32, true is 1") << int(DType::Float32) << 3 << "1";
        QTest::newRow("uint8, int 3") << int(DType::UInt8) << 1 << "3";
        QTest::newRow("int32, true is 1") << int(DType::Int32) << 3 << "1";
        QTest::newRow("int64, true is 1") << int(DType::Int64) << 3 << "1";
        QTest::newRow("int16, 0.0 calls Pad") << int(DType::Int16) << 5 << "0";
        QTest::newRow("int32, empty string calls Pad") << int(DType::Int32) << 6 << "0";
        QTest::newRow("bool, true") << int(DType::Bool) << 3 << "1";
        QTest::newRow("bool, default false") << int(DType::Bool) << 0 << "0";
        QTest::newRow("bool, 0.0 calls Pad") << int(DType::Bool) << 5 << "0";
        QTest::newRow("string, \"pad\"") << int(DType::String) << 4 << "pad";
        QTest::newRow("string, default \"\"") << int(DType::String) << 0 << "";
        QTest::newRow("string, false calls Pad") << int(DType::String) << 7 << "";
    }

    void padConstants()
    {
        QFETCH(int, dtype);
        QFETCH(int, constantKind);
        QFETCH(QString, expected);
        const DType t = DType(dtype);
        Attrs attrs{{"paddings", matrix({{1, 1}})}};
        const Attr constants[] = {Attr(),      Attr(3),   Attr(2.5), Attr(true),
                                  Attr("pad"), Attr(0.0), Attr(""),  Attr(false)};
        if (constantKind != 0) attrs["constant_values"] = constants[constantKind];
        const OpRun run = runOp("pad", {{makeFilled(t, {2}, Fill::Ones, 0, Limits{})}}, attrs);
        const Tensor& out = run.outputs[0];
        QCOMPARE(out.shape(), (Shape{4}));
        for (std::int64_t i : {0, 3}) {
            const QString text = t == DType::String
                                     ? QString::fromStdString(out.data<std::string>()[i])
                                     : QString::number(out.doubleAt(i));
            QCOMPARE(text, expected);
            QCOMPARE(run.sources[0][std::size_t(i)], kNoSource);
        }
        QCOMPARE(sourceIndex(run.sources[0][1]), 0);
    }

    void padConstantErrors_data()
    {
        QTest::addColumn<int>("index");
        for (int i = 0; i < int(padConstantErrorCases().size()); ++i)
            QTest::newRow(padConstantErrorCases()[std::size_t(i)].name) << i;
    }

    void padConstantErrors()
    {
        QFETCH(int, index);
        const PadConstantError& c = padConstantErrorCases()[std::size_t(index)];
        SS_EXPECT_ERROR(runOp("pad", {{makeFilled(c.dtype, {1}, Fill::Ones, 0, Limits{})}},
                              {{"paddings", matrix({{1, 0}})}, {"constant_values", c.constant}}),
                        ErrorCode::InvalidArgument, c.message);
    }

    void padConstantMistypedOrIgnored()
    {
        SS_EXPECT_ERROR(runOp("pad", {{T({1}, {1})}},
                              {{"paddings", matrix({{1, 0}})}, {"constant_values", Attr::Map{}}}),
                        ErrorCode::BadRequest, "");
        // The mirror modes ignore constant_values entirely.
        const OpRun run = runOp("pad", {{T({2}, {1, 2})}},
                                {{"paddings", matrix({{1, 1}})},
                                 {"mode", "SYMMETRIC"},
                                 {"constant_values", "ignored"}});
        QCOMPARE(values(run.outputs[0]), (std::vector<std::int64_t>{1, 1, 2, 2}));
    }

    // MirrorPad registers tstring on the CPU: strings are mirrored like numbers.
    void mirrorPadStrings_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("expected");
        QTest::newRow("REFLECT") << "REFLECT"
                                 << "c b a b c b a";
        QTest::newRow("SYMMETRIC") << "SYMMETRIC"
                                   << "b a a b c c b";
    }

    void mirrorPadStrings()
    {
        QFETCH(QString, mode);
        QFETCH(QString, expected);
        const OpRun run = runOp("pad", {{strings({3}, {"a", "b", "c"})}},
                                {{"paddings", matrix({{2, 2}})}, {"mode", mode.toStdString()}});
        QStringList got;
        for (std::int64_t i = 0; i < run.outputs[0].size(); ++i)
            got << QString::fromStdString(run.outputs[0].data<std::string>()[i]);
        QCOMPARE(got.join(' '), expected);
    }

    void stringsMove()
    {
        const OpRun tiled =
            runOp("tile", {{strings({4}, {"a", "b", "c", "d"})}}, {{"multiples", ilist({2})}});
        std::string joined;
        for (std::int64_t i = 0; i < tiled.outputs[0].size(); ++i)
            joined += tiled.outputs[0].data<std::string>()[i];
        QCOMPARE(joined, std::string("abcdabcd")); // seed 004: [a b c d] by [2]
        const OpRun transposed = runOp("transpose", {{strings({2, 2}, {"a0", "b0", "a1", "b1"})}});
        QCOMPARE(transposed.outputs[0].data<std::string>()[1], std::string("a1"));
    }

    // Slot k is filled with k * 1000 + i, so every value names its own source.
    void sourcesNameSlotAndIndex_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<int>("axis");
        QTest::newRow("concat axis 1") << "concat" << 1;
        QTest::newRow("concat axis 0") << "concat" << 0;
        QTest::newRow("stack axis 2") << "stack" << 2;
        QTest::newRow("stack axis 0") << "stack" << 0;
    }

    void sourcesNameSlotAndIndex()
    {
        QFETCH(QString, op);
        QFETCH(int, axis);
        const OpRun run =
            runOp(op.toStdString(), {{iota({2, 3}, 0), iota({2, 3}, 1000), iota({2, 3}, 2000)}},
                  {{"axis", axis}});
        const Tensor& out = run.outputs[0];
        for (std::int64_t i = 0; i < out.size(); ++i) {
            const std::int64_t s = run.sources[0][std::size_t(i)];
            QCOMPARE(sourceSlot(s), int(out.intAt(i) / 1000));
            QCOMPARE(sourceIndex(s), out.intAt(i) % 1000);
        }
    }

    void sourcesOfOneInputOps()
    {
        // reverse_sequence: everything comes from slot 0, never from seq_lengths (slot 1).
        const OpRun rs =
            runOp("reverse_sequence", {{iota({2, 3})}, {T({2}, {3, 2})}}, {{"seq_axis", 1}});
        QCOMPARE(rs.sources[0], (SourceList{packSource(0, 2), packSource(0, 1), packSource(0, 0),
                                            packSource(0, 4), packSource(0, 3), packSource(0, 5)}));
        // pad: the border has no source.
        const OpRun padded =
            runOp("pad", {{iota({1, 1}, 7)}}, {{"paddings", matrix({{1, 0}, {0, 1}})}});
        QCOMPARE(padded.sources[0],
                 (SourceList{kNoSource, kNoSource, packSource(0, 0), kNoSource}));
        // split: piece k reads its own run of the input.
        const OpRun pieces = runOp("split", {{iota({6})}}, {{"num_or_size_splits", 3}});
        QCOMPARE(pieces.sources[2], (SourceList{4, 5}));
    }

    // Pieces never write an element twice: their element counts add up to the output's.
    void noDoubleWrites_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QList<qint64>>("shape");
        QTest::newRow("CONSTANT 3-D") << "CONSTANT" << QList<qint64>{2, 3, 4};
        QTest::newRow("CONSTANT with an empty dim") << "CONSTANT" << QList<qint64>{2, 0, 4};
        QTest::newRow("REFLECT 3-D") << "REFLECT" << QList<qint64>{3, 3, 4};
        QTest::newRow("SYMMETRIC 3-D") << "SYMMETRIC" << QList<qint64>{2, 3, 4};
    }

    void noDoubleWrites()
    {
        QFETCH(QString, mode);
        QFETCH(QList<qint64>, shape);
        const OpRun run =
            runOp("pad", {{iota(Shape(shape.begin(), shape.end()))}},
                  {{"paddings", matrix({{1, 2}, {0, 2}, {2, 1}})}, {"mode", mode.toStdString()}});
        QCOMPARE(pieceElements(run.plan.outputs[0]), run.outputs[0].size());
        // Constant mode: the input box plus at most two slabs per dimension.
        QVERIFY(run.plan.outputs[0].pieces.size() <= (mode == "CONSTANT" ? 7u : 27u));
    }

    void reverseSequencePlanForms()
    {
        // Long sequences: a run of equal lengths is two affine pieces (reversed head, tail).
        const OpRun longRuns =
            runOp("reverse_sequence", {{iota({2, 200})}, {T({2}, {150, 150})}}, {{"seq_axis", 1}});
        const auto& pieces = longRuns.plan.outputs[0].pieces;
        QCOMPARE(pieces.size(), std::size_t(2));
        QVERIFY(std::holds_alternative<AffinePiece>(pieces[0]));
        QCOMPARE(longRuns.outputs[0].intAt(0), 149);
        QCOMPARE(longRuns.outputs[0].intAt(399), 399);
        // Many short runs: one list of contiguous rows (here single elements) costs less.
        std::vector<std::int64_t> alternating;
        for (int k = 0; k < 50; ++k)
            alternating.push_back(k % 2 ? 0 : 3);
        const OpRun shortRuns =
            runOp("reverse_sequence", {{iota({50, 3})}, {T({50}, alternating)}}, {{"seq_axis", 1}});
        QCOMPARE(shortRuns.plan.outputs[0].pieces.size(), std::size_t(1));
        const auto& rows = std::get<RowsPiece>(shortRuns.plan.outputs[0].pieces[0]);
        QCOMPARE(rows.rows.size(), std::size_t(150));
        QCOMPARE(values(shortRuns.outputs[0]).front(), 2);
        QCOMPARE(values(shortRuns.outputs[0])[3], 3);
    }

    void steps_data()
    {
        QTest::addColumn<int>("index");
        QTest::addColumn<QString>("title");
        QTest::addColumn<QString>("fragment");
        QTest::addColumn<QList<int>>("inputDims");
        struct Row
        {
            const char* name;
            int caseIndex;
            const char* title;
            const char* fragment;
            QList<int> dims;
        };
        auto find = [](const char* name) {
            for (int i = 0; i < int(cases().size()); ++i)
                if (std::string(cases()[std::size_t(i)].name) == name) return i;
            return -1;
        };
        const Row rows[] = {
            {"split count",
             find("split [5,30] into 3 along axis 1 (seed)"),
             "Sizes",
             "30 / 3 = 10 elements in every piece",
             {1}},
            {"split -1",
             find("split range(10) by [3,-1,5]"),
             "Sizes",
             "the -1 at index 1 takes the rest: 10 - 8 = 2",
             {0}},
            {"split single -1",
             find("SplitV single output resolves -1 (TensorFlow 2.21)"),
             "Sizes",
             "The one size is -1, which stands for the whole dimension (4)",
             {0}},
            {"tile arithmetic",
             find("tile [[0,1,2],[3,4,5]] by [2,1]"),
             "Output shape",
             "dimension 0: 2 x 2 = 4; dimension 1: 3 x 1 = 3",
             {0, 1}},
            {"pad dimension",
             find("pad CONSTANT (seed)"),
             "Dimension 1",
             "2 before + 3 + 2 after = 7",
             {1}},
            {"pad mirror limit",
             find("pad REFLECT (seed)"),
             "Dimension 0",
             "REFLECT allows up to 1 on each side",
             {0}},
            {"concat sum", find("concat axis 1 (seed)"), "Output shape", "3 + 3 = 6", {1}},
            {"concat single quirk",
             find("concat one tensor, axis unchecked"),
             "One input",
             "Quirk",
             {}},
            {"stack shape",
             find("pack x,y,z axis 1 (seed, erratum 27)"),
             "Output shape",
             "3 is inserted at position 1",
             {}},
            {"unstack count",
             find("unpack axis 1 (erratum 27)"),
             "Axis",
             "of size 3: 3 outputs",
             {1}},
            {"reverse_sequence lengths",
             find("reverse_sequence lengths [3,0]"),
             "Lengths",
             "entry 0: first 3 reversed; entry 1: unchanged",
             {0, 1}},
            {"reverse axes",
             find("reverse axis [3]"),
             "Axes",
             "dimension 3 (size 4) is reversed",
             {3}},
            {"reverse scalar quirk",
             find("reverse a scalar, axis unchecked"),
             "Nothing to reverse",
             "Quirk",
             {}},
            {"transpose default",
             find("transpose default (seed)"),
             "Permutation",
             "perm [1,0] (the default: the dimensions reversed)",
             {0, 1}},
        };
        for (const Row& r : rows)
            QTest::newRow(r.name) << r.caseIndex << r.title << r.fragment << r.dims;
    }

    void steps()
    {
        QFETCH(int, index);
        QFETCH(QString, title);
        QFETCH(QString, fragment);
        QFETCH(QList<int>, inputDims);
        QVERIFY(index >= 0);
        const Case& c = cases()[std::size_t(index)];
        const OpRun run = runOp(c.op, c.inputs, c.attrs);
        const auto& all = run.plan.steps;
        const auto it = std::find_if(all.begin(), all.end(),
                                     [&](const Step& s) { return s.title == title.toStdString(); });
        QVERIFY2(it != all.end(), qPrintable(title));
        QVERIFY2(QString::fromStdString(it->detail).contains(fragment), it->detail.c_str());
        QCOMPARE(QList<int>(it->inputDims.begin(), it->inputDims.end()), inputDims);
    }

    void everyOpExplainsItself()
    {
        for (const Case& c : cases()) {
            if (c.code != ErrorCode::Internal) continue;
            const OpRun run = runOp(c.op, c.inputs, c.attrs);
            QVERIFY2(!run.plan.steps.empty(), c.name);
            for (const Step& s : run.plan.steps)
                QVERIFY2(!s.title.empty() && !s.detail.empty(), c.name);
        }
    }

    void limits()
    {
        const auto RE = ErrorCode::ResourceExhausted;
        // Output element counts are checked before anything is allocated.
        SS_EXPECT_ERROR(runOp("tile", {{iota({1000})}}, {{"multiples", ilist({1000000000})}}), RE,
                        "");
        SS_EXPECT_ERROR(runOp("tile", {{iota({3})}}, {{"multiples", ilist({kInt64Max / 2})}}), RE,
                        "the output's dimension 0 would be 3 * 4611686018427387903, more than a "
                        "64-bit count can hold");
        SS_EXPECT_ERROR(runOp("pad", {{iota({2})}}, {{"paddings", matrix({{1, 1LL << 40}})}}), RE,
                        "");
        SS_EXPECT_ERROR(runOp("pad", {{iota({2})}}, {{"paddings", matrix({{kInt64Max, 0}})}}), RE,
                        "the output's dimension 0 would be 9223372036854775807 + 2 + 0, more than "
                        "a 64-bit count can hold");
        // Outputs without elements still cost something each.
        SS_EXPECT_ERROR(
            runOp("split", {{iota({0})}}, {{"num_or_size_splits", std::int64_t(1) << 50}}), RE, "");
        SS_EXPECT_ERROR(runOp("unstack", {{iota({1LL << 45, 0})}}), RE, "");
        // Empty multiples of an empty tensor stay cheap.
        QCOMPARE(
            runOp("tile", {{iota({0})}}, {{"multiples", ilist({1LL << 50})}}).outputs[0].size(), 0);
    }

    void badRequests()
    {
        const auto BR = ErrorCode::BadRequest;
        SS_EXPECT_ERROR(runOp("tile", {{iota({2})}}, {{"multiples", "two"}}), BR, "");
        SS_EXPECT_ERROR(runOp("tile", {{iota({2})}}), BR, "");
        SS_EXPECT_ERROR(runOp("split", {{iota({2})}}), BR, "");
        SS_EXPECT_ERROR(runOp("pad", {{iota({2})}}, {{"paddings", matrix({{1, 1}})}, {"mode", 3}}),
                        BR, "");
        SS_EXPECT_ERROR(runOp("pad", {{iota({2})}}), BR, "");
        SS_EXPECT_ERROR(runOp("reverse_sequence", {{iota({2, 2})}, {T({2}, {1, 1})}}), BR, "");
        SS_EXPECT_ERROR(runOp("reverse", {{iota({2})}}), BR,
                        "op 'reverse' needs exactly one of 'axis' (a list of dimensions) and "
                        "'dims' (one bool per dimension, the 1.x form)");
        SS_EXPECT_ERROR(
            runOp("reverse", {{iota({2})}}, {{"axis", ilist({0})}, {"dims", bools({true})}}), BR,
            "");
        SS_EXPECT_ERROR(runOp("reverse", {{iota({2})}}, {{"dims", ilist({1})}}), BR,
                        "attribute 'dims' must be a list of booleans");
        // Ragged: [[true, false], [true], [false, true, false]] holds six flags, as a 3 x 2 list
        // would, but is not one.
        SS_EXPECT_ERROR(runOp("reverse", {{iota({2})}},
                              {{"dims", Attr(Attr::List{bools({true, false}), bools({true}),
                                                        bools({false, true, false})})}}),
                        BR, "attribute 'dims' must be a rectangular list of booleans");
        SS_EXPECT_ERROR(runOp("concat", {{iota({2}), iota({2})}}), BR, "");
        SS_EXPECT_ERROR(runOp("stack", {{iota({2})}}, {{"axis", "0"}}), BR, "");
        SS_EXPECT_ERROR(
            runOp("split", {{iota({2})}}, {{"num_split", 2}, {"num_or_size_splits", 2}}), BR, "");
    }
};

QTEST_APPLESS_MAIN(TestShapeOps)
#include "tst_shape_ops.moc"
