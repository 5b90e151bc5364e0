// SPDX-License-Identifier: GPL-3.0-or-later
// The index ops (TensorFlow's kernels): gather, gather_nd, unique_with_counts,
// dynamic_partition, dynamic_stitch, boolean_mask, one_hot, sequence_mask. Every worked example,
// the seed page's examples with their true results, the errata, every validation error, the
// sources, every dtype, and differential tests against NumPy.
#include "numpy_oracle.h"
#include "op_runner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QTest>

#include <cmath>
#include <limits>
#include <memory>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <random>

using namespace ss;
using namespace ss::testing;

namespace {

// A tensor of a numeric dtype from values written as doubles.
Tensor numbers(DType dtype, const Shape& shape, const std::vector<double>& values)
{
    Tensor t = Tensor::empty(dtype, shape);
    for (std::int64_t i = 0; i < t.size(); ++i)
        t.setFromDouble(i, values[std::size_t(i)]);
    return t;
}
Tensor f32(const Shape& s, const std::vector<double>& v)
{
    return numbers(DType::Float32, s, v);
}
Tensor bools(const Shape& s, const std::vector<double>& v)
{
    return numbers(DType::Bool, s, v);
}
Tensor i64(const Shape& s, const std::vector<std::int64_t>& v)
{
    return ints(DType::Int64, s, v);
}

Attr nested(const std::vector<std::vector<std::int64_t>>& rows)
{
    Attr::List list;
    for (const auto& r : rows)
        list.push_back(Attr::ints(r));
    return list;
}

std::string show(const Tensor& t)
{
    std::string text = std::string(dtypeName(t.dtype())) + " " + shapeString(t.shape()) + " {";
    for (std::int64_t i = 0; i < t.size(); ++i) {
        if (i) text += ", ";
        text += t.dtype() == DType::String ? t.data<std::string>()[i]
                : isFloat(t.dtype())       ? std::to_string(t.doubleAt(i))
                                           : std::to_string(t.intAt(i));
    }
    return text + "}";
}

const Tensor kP = i32({2, 3}, {1, 2, 3, 4, 5, 6}); // gather's documented params
const Tensor kP2 = strings({2, 2}, {"a", "b", "c", "d"});
const Tensor kP3 = strings({2, 2, 2}, {"a0", "b0", "c0", "d0", "a1", "b1", "c1", "d1"});

struct Case
{
    const char* name;
    const char* op;
    std::vector<std::vector<Tensor>> inputs;
    Attrs attrs;
    std::vector<Tensor> expect;           // dtype, shape and bits of every output
    ErrorCode code = ErrorCode::Internal; // Internal: no error expected
    std::string message;                  // empty: any message
};

const std::vector<Case>& exampleCases()
{
    static const std::vector<Case> all = {
        // gather
        {"gather [1,0]",
         "gather",
         {{kP}, {i32({2}, {1, 0})}},
         {},
         {i32({2, 3}, {4, 5, 6, 1, 2, 3})}},
        {"gather [2,0,2] axis 1",
         "gather",
         {{kP}, {i32({3}, {2, 0, 2})}},
         {{"axis", 1}},
         {i32({2, 3}, {3, 1, 3, 6, 4, 6})}},
        {"gather [[1],[0]]",
         "gather",
         {{kP}, {i32({2, 1}, {1, 0})}},
         {},
         {i32({2, 1, 3}, {4, 5, 6, 1, 2, 3})}},
        {"gather batch_dims 1 axis 1",
         "gather",
         {{kP}, {i32({2, 2}, {2, 0, 1, 1})}},
         {{"axis", 1}, {"batch_dims", 1}},
         {i32({2, 2}, {3, 1, 5, 5})}},
        {"gather batch_dims 1, axis defaults to it",
         "gather",
         {{kP}, {i64({2, 2}, {2, 0, 1, 1})}},
         {{"batch_dims", 1}},
         {i32({2, 2}, {3, 1, 5, 5})}},
        {"gather batch_dims -1",
         "gather",
         {{kP}, {i32({2, 2}, {2, 0, 1, 1})}},
         {{"batch_dims", -1}},
         {i32({2, 2}, {3, 1, 5, 5})}},
        {"gather axis -1",
         "gather",
         {{kP}, {i32({1}, {0})}},
         {{"axis", -1}},
         {i32({2, 1}, {1, 4})}},
        // int16 indices: registered by TensorFlow 2.21's GatherV2 and GatherNd kernels.
        {"gather int16 indices",
         "gather",
         {{kP}, {ints(DType::Int16, {3}, {1, 0, 1})}},
         {},
         {i32({3, 3}, {4, 5, 6, 1, 2, 3, 4, 5, 6})}},
        {"gather_nd int16 indices",
         "gather_nd",
         {{kP}, {ints(DType::Int16, {2, 2}, {1, 2, 0, 0})}},
         {},
         {i32({2}, {6, 1})}},
        {"gather scalar index", "gather", {{kP}, {i32({}, {1})}}, {}, {i32({3}, {4, 5, 6})}},
        {"gather empty slice skips index checks (quirk)",
         "gather",
         {{Tensor::zeros(DType::Int32, {3, 0})}, {i32({1}, {10})}},
         {},
         {i32({1, 0}, {})}},
        {"gather empty indices", "gather", {{kP}, {i32({0}, {})}}, {}, {i32({0, 3}, {})}},
        {"gather from a zero-size dimension with no indices",
         "gather",
         {{Tensor::zeros(DType::Int32, {0, 2})}, {i32({0}, {})}},
         {},
         {i32({0, 2}, {})}},
        {"gather strings",
         "gather",
         {{kP2}, {i32({3}, {1, 1, 0})}},
         {{"axis", 1}},
         {strings({2, 3}, {"b", "b", "a", "d", "d", "c"})}},

        // gather_nd: the ten examples of seed page 004 (all correct, erratum 22) and section 18
        {"gather_nd seed: simple indexing (erratum 22: all correct)",
         "gather_nd",
         {{kP2}, {i32({2, 2}, {0, 0, 1, 1})}},
         {},
         {strings({2}, {"a", "d"})}},
        {"gather_nd slice indexing",
         "gather_nd",
         {{kP2}, {i32({2, 1}, {1, 0})}},
         {},
         {strings({2, 2}, {"c", "d", "a", "b"})}},
        {"gather_nd 3-tensor [[1]]",
         "gather_nd",
         {{kP3}, {i32({1, 1}, {1})}},
         {},
         {strings({1, 2, 2}, {"a1", "b1", "c1", "d1"})}},
        {"gather_nd 3-tensor [[0,1],[1,0]]",
         "gather_nd",
         {{kP3}, {i32({2, 2}, {0, 1, 1, 0})}},
         {},
         {strings({2, 2}, {"c0", "d0", "a1", "b1"})}},
        {"gather_nd 3-tensor [[0,0,1],[1,0,1]]",
         "gather_nd",
         {{kP3}, {i32({2, 3}, {0, 0, 1, 1, 0, 1})}},
         {},
         {strings({2}, {"b0", "b1"})}},
        {"gather_nd batched matrix",
         "gather_nd",
         {{kP2}, {i32({2, 1, 2}, {0, 0, 0, 1})}},
         {},
         {strings({2, 1}, {"a", "b"})}},
        {"gather_nd batched slices of a matrix",
         "gather_nd",
         {{kP2}, {i32({2, 1, 1}, {1, 0})}},
         {},
         {strings({2, 1, 2}, {"c", "d", "a", "b"})}},
        {"gather_nd batched 3-tensor [[[1]],[[0]]]",
         "gather_nd",
         {{kP3}, {i32({2, 1, 1}, {1, 0})}},
         {},
         {strings({2, 1, 2, 2}, {"a1", "b1", "c1", "d1", "a0", "b0", "c0", "d0"})}},
        {"gather_nd batched 3-tensor pairs",
         "gather_nd",
         {{kP3}, {i32({2, 2, 2}, {0, 1, 1, 0, 0, 0, 1, 1})}},
         {},
         {strings({2, 2, 2}, {"c0", "d0", "a1", "b1", "a0", "b0", "c1", "d1"})}},
        {"gather_nd batched 3-tensor triples",
         "gather_nd",
         {{kP3}, {i32({2, 2, 3}, {0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0})}},
         {},
         {strings({2, 2}, {"b0", "b1", "d0", "c1"})}},
        {"gather_nd batch_dims 1",
         "gather_nd",
         {{kP}, {i32({2, 2, 1}, {2, 0, 1, 1})}},
         {{"batch_dims", 1}},
         {i32({2, 2}, {3, 1, 5, 5})}},
        {"gather_nd batch_dims 1, whole rows",
         "gather_nd",
         {{kP3}, {i64({2, 1}, {1, 0})}},
         {{"batch_dims", 1}},
         {strings({2, 2}, {"c0", "d0", "a1", "b1"})}},
        {"gather_nd batch_dims 2 pairs batches in flat order",
         "gather_nd",
         {{iota({2, 3, 4})}, {i32({3, 2, 1}, {0, 1, 2, 3, 0, 1})}},
         {{"batch_dims", 2}},
         {i32({2, 3}, {0, 5, 10, 15, 16, 21})}},
        {"gather_nd no tuples, empty params",
         "gather_nd",
         {{Tensor::zeros(DType::Int32, {0, 3})}, {i32({0, 2}, {})}},
         {},
         {i32({0}, {})}},
        {"gather_nd depth 0 copies params per tuple",
         "gather_nd",
         {{kP}, {i32({2, 0}, {})}},
         {},
         {i32({2, 2, 3}, {1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6})}},

        // unique_with_counts (section 19, seed 004, erratum 23)
        {"unique seed example",
         "unique_with_counts",
         {{i32({9}, {1, 1, 2, 4, 4, 4, 7, 8, 8})}},
         {},
         {i32({5}, {1, 2, 4, 7, 8}), i32({9}, {0, 0, 1, 2, 2, 2, 3, 4, 4}),
          i32({5}, {2, 1, 3, 1, 2})}},
        {"unique keeps first-occurrence order",
         "unique_with_counts",
         {{i32({6}, {4, 1, 4, 0, 1, 4})}},
         {},
         {i32({3}, {4, 1, 0}), i32({6}, {0, 1, 0, 2, 1, 0}), i32({3}, {3, 2, 1})}},
        {"unique out_idx int64",
         "unique_with_counts",
         {{i32({3}, {7, 7, 5})}},
         {{"out_idx", "int64"}},
         {i32({2}, {7, 5}), i64({3}, {0, 0, 1}), i64({2}, {2, 1})}},
        {"unique empty",
         "unique_with_counts",
         {{f32({0}, {})}},
         {},
         {f32({0}, {}), i32({0}, {}), i32({0}, {})}},
        {"unique NaN never equal, -0 equals +0",
         "unique_with_counts",
         {{f32({6}, {NAN, -0.0, 0.0, NAN, 1.0, 0.0})}},
         {},
         {f32({4}, {NAN, -0.0, NAN, 1.0}), i32({6}, {0, 1, 1, 2, 3, 1}), i32({4}, {1, 3, 1, 1})}},
        {"unique strings",
         "unique_with_counts",
         {{strings({4}, {"b", "a", "b", "c"})}},
         {},
         {strings({3}, {"b", "a", "c"}), i32({4}, {0, 1, 0, 2}), i32({3}, {2, 1, 1})}},
        {"unique bools",
         "unique_with_counts",
         {{bools({3}, {1, 1, 0})}},
         {},
         {bools({2}, {1, 0}), i32({3}, {0, 0, 1}), i32({2}, {2, 1})}},

        // dynamic_partition (section 20, seed 004)
        {"dynamic_partition vector",
         "dynamic_partition",
         {{i32({5}, {10, 20, 30, 40, 50})}, {i32({5}, {0, 0, 1, 1, 0})}},
         {{"num_partitions", 2}},
         {i32({3}, {10, 20, 50}), i32({2}, {30, 40})}},
        {"dynamic_partition scalar partitions",
         "dynamic_partition",
         {{i32({2}, {10, 20})}, {i32({}, {1})}},
         {{"num_partitions", 2}},
         {i32({0, 2}, {}), i32({1, 2}, {10, 20})}},
        {"dynamic_partition rows, unused partition",
         "dynamic_partition",
         {{i32({4, 2}, {1, 2, 3, 4, 5, 6, 7, 8})}, {i32({4}, {1, 0, 1, 1})}},
         {{"num_partitions", 3}},
         {i32({1, 2}, {3, 4}), i32({3, 2}, {1, 2, 5, 6, 7, 8}), i32({0, 2}, {})}},
        {"dynamic_partition 2-D partitions",
         "dynamic_partition",
         {{strings({2, 2}, {"a", "b", "c", "d"})}, {i32({2, 2}, {1, 0, 0, 1})}},
         {{"num_partitions", 2}},
         {strings({2}, {"b", "c"}), strings({2}, {"a", "d"})}},

        // dynamic_stitch (section 21, seed 004, erratum 24: max + 1 rows)
        {"dynamic_stitch seed example has max + 1 = 7 rows (erratum 24)",
         "dynamic_stitch",
         {{i32({}, {6}), i32({2}, {4, 1}), i32({2, 2}, {5, 2, 0, 3})},
          {i32({2}, {61, 62}), i32({2, 2}, {41, 42, 11, 12}),
           i32({2, 2, 2}, {51, 52, 21, 22, 1, 2, 31, 32})}},
         {},
         {i32({7, 2}, {1, 2, 11, 12, 21, 22, 31, 32, 41, 42, 51, 52, 61, 62})}},
        {"dynamic_stitch later duplicate wins",
         "dynamic_stitch",
         {{i32({2}, {0, 2}), i32({2}, {1, 2})},
          {i32({2, 2}, {1, 1, 2, 2}), i32({2, 2}, {3, 3, 4, 4})}},
         {},
         {i32({3, 2}, {1, 1, 3, 3, 4, 4})}},
        {"dynamic_stitch duplicate inside one input",
         "dynamic_stitch",
         {{i32({3}, {1, 0, 1})}, {f32({3}, {1.5, 2.5, 3.5})}},
         {},
         {f32({2}, {2.5, 3.5})}},
        {"dynamic_stitch all empty",
         "dynamic_stitch",
         {{i32({0}, {})}, {i32({0, 3}, {})}},
         {},
         {i32({0, 3}, {})}},

        // boolean_mask (section 22, seed 004)
        {"boolean_mask 1-D",
         "boolean_mask",
         {{i32({4}, {0, 1, 2, 3})}, {bools({4}, {1, 0, 1, 0})}},
         {},
         {i32({2}, {0, 2})}},
        {"boolean_mask 2-D tensor",
         "boolean_mask",
         {{i32({3, 2}, {1, 2, 3, 4, 5, 6})}, {bools({3}, {1, 0, 1})}},
         {},
         {i32({2, 2}, {1, 2, 5, 6})}},
        {"boolean_mask 2-D mask",
         "boolean_mask",
         {{iota({2, 3, 4})}, {bools({2, 3}, {1, 0, 1, 0, 1, 0})}},
         {},
         {i32({3, 4}, {0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19})}},
        {"boolean_mask axis 1",
         "boolean_mask",
         {{iota({2, 3})}, {bools({3}, {1, 0, 1})}},
         {{"axis", 1}},
         {i32({2, 2}, {0, 2, 3, 5})}},
        {"boolean_mask axis -2 passes the static check",
         "boolean_mask",
         {{iota({2, 3, 2})}, {bools({3}, {0, 1, 1})}},
         {{"axis", -2}},
         {i32({2, 2, 2}, {2, 3, 4, 5, 8, 9, 10, 11})}},
        {"boolean_mask all false",
         "boolean_mask",
         {{iota({3, 2})}, {bools({3}, {0, 0, 0})}},
         {},
         {i32({0, 2}, {})}},

        // one_hot (section 23, seed 004)
        {"one_hot on 5.0 off 0.0",
         "one_hot",
         {{i32({4}, {0, 2, -1, 1})}},
         {{"depth", 3}, {"on_value", 5.0}, {"off_value", 0.0}},
         {f32({4, 3}, {5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0})}},
        {"one_hot 2-D indices",
         "one_hot",
         {{i32({2, 2}, {0, 2, 1, -1})}},
         {{"depth", 3}, {"on_value", 1.0}, {"off_value", 0.0}},
         {f32({2, 2, 3}, {1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0})}},
        {"one_hot axis 0",
         "one_hot",
         {{i32({2, 2}, {0, 2, 1, -1})}},
         {{"depth", 3}, {"axis", 0}},
         {f32({3, 2, 2}, {1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0})}},
        {"one_hot defaults: float32 identity",
         "one_hot",
         {{i32({3}, {0, 1, 2})}},
         {{"depth", 3}},
         {f32({3, 3}, {1, 0, 0, 0, 1, 0, 0, 0, 1})}},
        {"one_hot scalar index",
         "one_hot",
         {{i64({}, {1})}},
         {{"depth", 3}},
         {f32({3}, {0, 1, 0})}},
        {"one_hot depth 0", "one_hot", {{i32({2}, {0, 1})}}, {{"depth", 0}}, {f32({2, 0}, {})}},
        {"one_hot int on_value gives int32",
         "one_hot",
         {{i32({2}, {1, 0})}},
         {{"depth", 2}, {"on_value", 7}},
         {i32({2, 2}, {0, 7, 7, 0})}},
        {"one_hot int on_value with dtype float64",
         "one_hot",
         {{ints(DType::UInt8, {1}, {1})}},
         {{"depth", 2}, {"on_value", 7}, {"dtype", "float64"}},
         {numbers(DType::Float64, {1, 2}, {0, 7})}},
        {"one_hot strings",
         "one_hot",
         {{ints(DType::Int8, {2}, {1, 5})}},
         {{"depth", 2}, {"on_value", "yes"}, {"off_value", "no"}},
         {strings({2, 2}, {"no", "yes", "no", "no"})}},
        {"one_hot bools",
         "one_hot",
         {{i32({2}, {1, 0})}},
         {{"depth", 2}, {"on_value", true}, {"off_value", false}},
         {bools({2, 2}, {0, 1, 1, 0})}},

        // sequence_mask (section 24, seed 004, erratum 25)
        {"sequence_mask seed example",
         "sequence_mask",
         {{i32({3}, {1, 3, 2})}},
         {{"maxlen", 5}},
         {bools({3, 5}, {1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0})}},
        {"sequence_mask 2-D lengths, maxlen from max (erratum 25)",
         "sequence_mask",
         {{i32({2, 2}, {1, 3, 2, 0})}},
         {},
         {bools({2, 2, 3}, {1, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0})}},
        {"sequence_mask lengths beyond maxlen and negative (erratum 25)",
         "sequence_mask",
         {{i32({2}, {-1, 7})}},
         {{"maxlen", 3}},
         {bools({2, 3}, {0, 0, 0, 1, 1, 1})}},
        {"sequence_mask float32",
         "sequence_mask",
         {{i32({2}, {1, 2})}},
         {{"dtype", "float32"}},
         {f32({2, 2}, {1, 0, 1, 1})}},
        {"sequence_mask empty lengths", "sequence_mask", {{i32({0}, {})}}, {}, {bools({0, 0}, {})}},
        {"sequence_mask scalar length",
         "sequence_mask",
         {{i64({}, {2})}},
         {{"maxlen", 4}},
         {bools({4}, {1, 1, 0, 0})}},
        {"sequence_mask int64 length wraps to int32 (quirk)",
         "sequence_mask",
         {{i64({2}, {(std::int64_t(1) << 32) + 1, 2})}},
         {{"maxlen", 3}},
         {bools({2, 3}, {1, 0, 0, 1, 1, 0})}},
    };
    return all;
}

const std::vector<Case>& errorCases()
{
    const ErrorCode bad = ErrorCode::InvalidArgument;
    const ErrorCode range = ErrorCode::OutOfRange;
    const ErrorCode big = ErrorCode::ResourceExhausted;
    static const std::vector<Case> all = {
        // gather
        {"gather index 2 of 2",
         "gather",
         {{kP}, {i32({1}, {2})}},
         {},
         {},
         range,
         "indices[0] = 2 is not in [0, 2)"},
        {"gather scalar index 7",
         "gather",
         {{i32({3}, {1, 2, 3})}, {i32({}, {7})}},
         {},
         {},
         range,
         "indices = 7 is not in [0, 3)"},
        {"gather negative index is not wrapped",
         "gather",
         {{kP}, {i32({2, 2}, {0, 1, -1, 0})}},
         {},
         {},
         range,
         "indices[1,0] = -1 is not in [0, 2)"},
        {"gather scalar params",
         "gather",
         {{i32({}, {1})}, {i32({}, {0})}},
         {},
         {},
         bad,
         "params must be at least 1 dimensional"},
        {"gather axis list",
         "gather",
         {{kP}, {i32({1}, {0})}},
         {{"axis", Attr::ints({0})}},
         {},
         bad,
         "axis must be scalar"},
        {"gather axis 5 on rank 2",
         "gather",
         {{kP}, {i32({1}, {0})}},
         {{"axis", 5}},
         {},
         bad,
         "Shape must be at least rank 6 but is rank 2"},
        {"gather axis -3 on rank 2",
         "gather",
         {{kP}, {i32({1}, {0})}},
         {{"axis", -3}},
         {},
         bad,
         "Shape must be at least rank 3 but is rank 2"},
        {"gather batch_dims out of range",
         "gather",
         {{kP}, {i32({2, 1}, {0, 0})}},
         {{"axis", 1}, {"batch_dims", 3}},
         {},
         bad,
         "Expected batch_dims in the range [-2, 2], but got 3"},
        {"gather batch_dims not below rank(params)",
         "gather",
         {{kP}, {i32({2, 3}, {0, 0, 0, 0, 0, 0})}},
         {{"axis", 1}, {"batch_dims", 2}},
         {},
         bad,
         "batch_dims (2) must be less than rank(params) (2)."},
        {"gather batch_dims above axis -2 (not literally 0)",
         "gather",
         {{kP}, {i32({2, 1}, {0, 0})}},
         {{"axis", -2}, {"batch_dims", 1}},
         {},
         bad,
         "batch_dims (1) must be less than or equal to axis (0)."},
        {"gather batch shapes differ",
         "gather",
         {{kP}, {i32({3, 1}, {0, 0, 0})}},
         {{"axis", 1}, {"batch_dims", 1}},
         {},
         bad,
         "params.shape[0]: 2 should be equal to indices.shape[0]: 3"},
        {"gather float indices",
         "gather",
         {{kP}, {f32({1}, {0})}},
         {},
         {},
         bad,
         "indices has dtype float32; it must be one of: int16, int32, int64"},
        // TensorFlow 2.21 passes batch_dims to GatherV2 whatever the axis (the example:
        // older TensorFlow dropped it when axis was literally 0 and answered).
        {"gather batch_dims above axis 0",
         "gather",
         {{i32({1, 1}, {7})}, {i32({1}, {0})}},
         {{"axis", 0}, {"batch_dims", 1}},
         {},
         bad,
         "batch_dims (1) must be less than or equal to axis (0)."},
        {"gather batch_dims 1 with axis 0 on a matrix",
         "gather",
         {{kP}, {i32({2, 1}, {1, 0})}},
         {{"axis", 0}, {"batch_dims", 1}},
         {},
         bad,
         "batch_dims (1) must be less than or equal to axis (0)."},
        {"gather batch_dims beyond the indices' rank with axis 0",
         "gather",
         {{kP}, {i32({1}, {1})}},
         {{"axis", 0}, {"batch_dims", 7}},
         {},
         bad,
         "Expected batch_dims in the range [-1, 1], but got 7"},
        {"gather batch_dims not below params' rank",
         "gather",
         {{i32({2}, {1, 2})}, {i32({2, 1}, {0, 0})}},
         {{"axis", 0}, {"batch_dims", -1}},
         {},
         bad,
         "batch_dims (1) must be less than rank(params) (1)."},
        {"gather int16 indices over a long axis",
         "gather",
         {{Tensor::zeros(DType::Int8, {40000})}, {ints(DType::Int16, {1}, {0})}},
         {},
         {},
         bad,
         "params.shape[0] too large for int16 indexing: 40000 > 32767"},
        {"gather output above rank 32",
         "gather",
         {{Tensor::zeros(DType::Int8, Shape(32, 1))}, {Tensor::zeros(DType::Int32, {1, 1})}},
         {},
         {},
         bad,
         ""},
        {"gather mistyped axis",
         "gather",
         {{kP}, {i32({1}, {0})}},
         {{"axis", "one"}},
         {},
         ErrorCode::BadRequest,
         ""},

        // gather_nd
        {"gather_nd bad tuple",
         "gather_nd",
         {{i32({3}, {0, 1, 2})}, {i32({1, 2, 1}, {0, 7})}},
         {},
         {},
         range,
         "indices[0,1] = [7] does not index into param shape [3]"},
        {"gather_nd negative component",
         "gather_nd",
         {{kP}, {i32({2}, {-1, 0})}},
         {},
         {},
         range,
         "indices = [-1, 0] does not index into param shape [2,3]"},
        {"gather_nd batched bad tuple names the batch coordinate",
         "gather_nd",
         {{kP}, {i32({2, 1, 1}, {0, 7})}},
         {{"batch_dims", 1}},
         {},
         range,
         "indices[1,0] = [1, 7] does not index into param shape [2,3]"},
        {"gather_nd scalar params",
         "gather_nd",
         {{i32({}, {1})}, {i32({1}, {0})}},
         {},
         {},
         bad,
         "params must be at least a vector"},
        {"gather_nd scalar indices",
         "gather_nd",
         {{kP}, {i32({}, {0})}},
         {},
         {},
         bad,
         "indices must be at least a vector"},
        {"gather_nd index depth above rank",
         "gather_nd",
         {{kP}, {i32({1, 3}, {0, 0, 0})}},
         {},
         {},
         bad,
         "index innermost dimension length must be <= params rank; saw: 3 vs. 2"},
        {"gather_nd empty params",
         "gather_nd",
         {{Tensor::zeros(DType::Int32, {0, 3})}, {i32({1, 2}, {0, 0})}},
         {},
         {},
         bad,
         "Requested more than 0 entries, but params is empty.  Params shape: [0,3]"},
        {"gather_nd index depth 8 (InvalidArgument in TF)",
         "gather_nd",
         {{Tensor::zeros(DType::Int32, {1, 1, 1, 1, 1, 1, 1, 1})},
          {Tensor::zeros(DType::Int32, {1, 8})}},
         {},
         {},
         bad,
         "Only indices.shape[-1] values between 1 and 7 are currently supported.  Requested rank: "
         "8"},
        {"gather_nd negative batch_dims",
         "gather_nd",
         {{kP}, {i32({2, 1}, {0, 0})}},
         {{"batch_dims", -1}},
         {},
         bad,
         "tf.gather_nd does not allow negative batch_dims."},
        {"gather_nd batch_dims not below rank(indices)",
         "gather_nd",
         {{iota({2, 3, 2})}, {i32({2, 1}, {0, 0})}},
         {{"batch_dims", 2}},
         {},
         bad,
         "Argument `batch_dims` = 2 must be less than rank(`indices`) = 2"},
        {"gather_nd batch_dims not below rank(params)",
         "gather_nd",
         {{kP}, {i32({2, 3, 1}, {0, 0, 0, 0, 0, 0})}},
         {{"batch_dims", 2}},
         {},
         bad,
         "Argument `batch_dims` = 2 must be less than rank(`params`) = 2"},
        {"gather_nd batch sizes differ",
         "gather_nd",
         {{kP}, {i32({3, 1}, {0, 0, 0})}},
         {{"batch_dims", 1}},
         {},
         bad,
         "Input to reshape is a tensor with 3 values, but the requested shape has 2"},
        {"gather_nd int8 indices",
         "gather_nd",
         {{kP}, {ints(DType::Int8, {1}, {0})}},
         {},
         {},
         bad,
         "indices has dtype int8; it must be one of: int16, int32, int64"},
        {"gather_nd int16 indices over a large params",
         "gather_nd",
         {{Tensor::zeros(DType::Int8, {200, 200})}, {ints(DType::Int16, {1, 2}, {0, 0})}},
         {},
         {},
         bad,
         "params.NumElements() too large for int16 indexing: 40000 > 32767"},

        // unique_with_counts
        {"unique of a matrix",
         "unique_with_counts",
         {{iota({2, 2})}},
         {},
         {},
         bad,
         "unique expects a 1D vector."},
        {"unique of a scalar",
         "unique_with_counts",
         {{i32({}, {1})}},
         {},
         {},
         bad,
         "unique expects a 1D vector."},
        {"unique out_idx float32",
         "unique_with_counts",
         {{iota({2})}},
         {{"out_idx", "float32"}},
         {},
         bad,
         "out_idx must be int32 or int64, not float32"},
        {"unique out_idx not a dtype",
         "unique_with_counts",
         {{iota({2})}},
         {{"out_idx", "int99"}},
         {},
         ErrorCode::BadRequest,
         ""},

        // dynamic_partition
        {"dynamic_partition partition 2 of 2",
         "dynamic_partition",
         {{iota({2})}, {i32({2}, {0, 2})}},
         {{"num_partitions", 2}},
         {},
         bad,
         "partitions[1] = 2 is not in [0, 2)"},
        {"dynamic_partition 2-D position",
         "dynamic_partition",
         {{iota({2, 2})}, {i32({2, 2}, {0, 0, -1, 0})}},
         {{"num_partitions", 2}},
         {},
         bad,
         "partitions[1,0] = -1 is not in [0, 2)"},
        {"dynamic_partition shape prefix",
         "dynamic_partition",
         {{iota({5})}, {i32({4}, {0, 0, 0, 0})}},
         {{"num_partitions", 2}},
         {},
         bad,
         "data.shape must start with partitions.shape, got data.shape = [5], partitions.shape = "
         "[4]"},
        {"dynamic_partition zero partitions",
         "dynamic_partition",
         {{iota({1})}, {i32({1}, {0})}},
         {{"num_partitions", 0}},
         {},
         bad,
         "Value for attr 'num_partitions' of 0 must be at least minimum 1"},
        {"dynamic_partition int64 partitions",
         "dynamic_partition",
         {{iota({1})}, {i64({1}, {0})}},
         {{"num_partitions", 1}},
         {},
         bad,
         "partitions has dtype int64; it must be one of: int32"},
        {"dynamic_partition a billion outputs",
         "dynamic_partition",
         {{iota({1})}, {i32({1}, {0})}},
         {{"num_partitions", 1000000000}},
         {},
         big,
         ""},
        {"dynamic_partition missing num_partitions",
         "dynamic_partition",
         {{iota({1})}, {i32({1}, {0})}},
         {},
         {},
         ErrorCode::BadRequest,
         ""},

        // dynamic_stitch
        {"dynamic_stitch negative index",
         "dynamic_stitch",
         {{i32({2}, {-1, 0})}, {iota({2})}},
         {},
         {},
         range,
         "indices[0] is out of range"},
        {"dynamic_stitch only a negative index",
         "dynamic_stitch",
         {{i32({1}, {-1})}, {iota({1})}},
         {},
         {},
         range,
         "indices[0] is out of range"},
        {"dynamic_stitch index check comes before shape checks",
         "dynamic_stitch",
         {{i32({2}, {0, -5})}, {iota({3})}},
         {},
         {},
         range,
         "indices[1] is out of range"},
        {"dynamic_stitch data shape prefix",
         "dynamic_stitch",
         {{i32({2}, {0, 1}), i32({2}, {2, 3})}, {iota({2}), iota({3})}},
         {},
         {},
         bad,
         "data[1].shape = [3] does not start with indices[1].shape = [2]"},
        {"dynamic_stitch slice shapes differ",
         "dynamic_stitch",
         {{i32({2}, {0, 1}), i32({2}, {2, 3})}, {iota({2, 2}), iota({2, 3})}},
         {},
         {},
         bad,
         "Need data[0].shape[1:] = data[1].shape[1:], got data[0].shape = [2,2], data[1].shape = "
         "[2,3], "
         "indices[0].shape = [2], indices[1].shape = [2]"},
        {"dynamic_stitch int64 indices",
         "dynamic_stitch",
         {{i64({1}, {0})}, {iota({1})}},
         {},
         {},
         bad,
         "indices[0] has dtype int64; it must be one of: int32"},
        {"dynamic_stitch data dtypes differ",
         "dynamic_stitch",
         {{i32({1}, {0}), i32({1}, {1})}, {iota({1}), f32({1}, {0})}},
         {},
         {},
         bad,
         "data[1] has dtype float32 but data[0] has int32; every data tensor must have the same "
         "dtype"},
        {"dynamic_stitch unpaired lists",
         "dynamic_stitch",
         {{i32({1}, {0})}, {iota({1}), iota({1})}},
         {},
         {},
         bad,
         "dynamic_stitch needs one data tensor per indices tensor, got 1 indices and 2 data "
         "tensors"},
        {"dynamic_stitch no inputs",
         "dynamic_stitch",
         {{}, {}},
         {},
         {},
         bad,
         "dynamic_stitch needs at least one indices tensor"},

        // boolean_mask
        {"boolean_mask scalar mask",
         "boolean_mask",
         {{iota({2})}, {bools({}, {1})}},
         {},
         {},
         bad,
         "mask cannot be scalar."},
        {"boolean_mask shapes differ",
         "boolean_mask",
         {{iota({3})}, {bools({4}, {1, 0, 1, 0})}},
         {},
         {},
         bad,
         "Shapes (3,) and (4,) are incompatible"},
        {"boolean_mask axis -1 is refused by the static check",
         "boolean_mask",
         {{iota({2, 3})}, {bools({3}, {1, 0, 1})}},
         {{"axis", -1}},
         {},
         bad,
         "Shapes () and (3,) are incompatible"},
        {"boolean_mask mask longer than the tensor",
         "boolean_mask",
         {{iota({2})}, {bools({2, 1}, {1, 0})}},
         {},
         {},
         bad,
         "Shapes (2,) and (2, 1) are incompatible"},
        {"boolean_mask int mask",
         "boolean_mask",
         {{iota({2})}, {i32({2}, {1, 0})}},
         {},
         {},
         bad,
         "mask has dtype int32; it must be one of: bool"},

        // one_hot
        {"one_hot depth -1",
         "one_hot",
         {{i32({2}, {0, 1})}},
         {{"depth", -1}},
         {},
         bad,
         "depth must be non-negative, got: -1"},
        {"one_hot axis -2",
         "one_hot",
         {{i32({2}, {0, 1})}},
         {{"depth", 2}, {"axis", -2}},
         {},
         bad,
         "Expected axis to be -1 or between [0, 2).  But received: -2"},
        {"one_hot axis 3 on a vector",
         "one_hot",
         {{i32({2}, {0, 1})}},
         {{"depth", 2}, {"axis", 3}},
         {},
         bad,
         "Expected axis to be -1 or between [0, 2).  But received: 3"},
        {"one_hot depth list",
         "one_hot",
         {{i32({2}, {0, 1})}},
         {{"depth", Attr::ints({2})}},
         {},
         bad,
         "depth must be a scalar, but got: [1] (the shape of the list [2] given as depth; give "
         "one integer)"},
        {"one_hot on_value list",
         "one_hot",
         {{i32({2}, {0, 1})}},
         {{"depth", 2}, {"on_value", Attr::ints({1, 2})}},
         {},
         bad,
         "on_value must be a scalar, but got: [2]"},
        {"one_hot off_value list",
         "one_hot",
         {{i32({2}, {0, 1})}},
         {{"depth", 2}, {"off_value", nested({{0}, {0}})}},
         {},
         bad,
         "off_value must be a scalar, but got: [2,1]"},
        {"one_hot on int, off float",
         "one_hot",
         {{i32({1}, {0})}},
         {{"depth", 2}, {"on_value", 5}, {"off_value", 0.0}},
         {},
         bad,
         "dtype int32 of on_value does not match dtype float32 of off_value"},
        {"one_hot float on_value, int32 dtype",
         "one_hot",
         {{i32({1}, {0})}},
         {{"depth", 2}, {"on_value", 5.0}, {"dtype", "int32"}},
         {},
         bad,
         "dtype float32 of on_value does not match dtype parameter int32"},
        {"one_hot 300 does not fit int8",
         "one_hot",
         {{i32({1}, {0})}},
         {{"depth", 2}, {"off_value", 300}, {"dtype", "int8"}},
         {},
         bad,
         "dtype int32 of off_value does not match dtype parameter int8"},
        {"one_hot bool dtype needs on and off",
         "one_hot",
         {{i32({1}, {0})}},
         {{"depth", 2}, {"dtype", "bool"}},
         {},
         bad,
         "Cannot convert 1 to EagerTensor of dtype bool"},
        {"one_hot string off_value alone",
         "one_hot",
         {{i32({1}, {0})}},
         {{"depth", 2}, {"off_value", "x"}},
         {},
         bad,
         "Cannot convert 1 to EagerTensor of dtype string"},
        {"one_hot int16 indices",
         "one_hot",
         {{ints(DType::Int16, {1}, {0})}},
         {{"depth", 2}},
         {},
         bad,
         "indices has dtype int16; it must be one of: uint8, int8, int32, int64"},
        {"one_hot depth beyond int32",
         "one_hot",
         {{i32({1}, {0})}},
         {{"depth", std::int64_t(1) << 32}},
         {},
         bad,
         "Cannot convert 4294967296 to EagerTensor of dtype int32"},
        {"one_hot output over the limit",
         "one_hot",
         {{iota({100})}},
         {{"depth", std::int64_t(1) << 30}},
         {},
         big,
         ""},
        {"one_hot missing depth", "one_hot", {{iota({1})}}, {}, {}, ErrorCode::BadRequest, ""},

        // sequence_mask
        {"sequence_mask negative maxlen",
         "sequence_mask",
         {{i32({1}, {1})}},
         {{"maxlen", -1}},
         {},
         bad,
         "Requires start <= limit when delta > 0: 0/-1"},
        {"sequence_mask maxlen list",
         "sequence_mask",
         {{i32({1}, {1})}},
         {{"maxlen", Attr::ints({2, 3})}},
         {},
         bad,
         "Argument `maxlen` must be scalar for sequence_mask, received `maxlen` = [2,3] with shape "
         "'(2,)' "
         "instead"},
        {"sequence_mask string dtype",
         "sequence_mask",
         {{i32({1}, {1})}},
         {{"dtype", "string"}},
         {},
         ErrorCode::Unimplemented,
         "Cast bool to string is not supported"},
        {"sequence_mask float lengths",
         "sequence_mask",
         {{f32({1}, {1})}},
         {},
         {},
         bad,
         "lengths has dtype float32; it must be one of: int8, uint8, int16, int32, int64"},
        {"sequence_mask output over the limit",
         "sequence_mask",
         {{i32({4}, {1, 2, 3, 4})}},
         {{"maxlen", std::int64_t(1) << 40}},
         {},
         big,
         ""},
        {"sequence_mask lengths rank 32",
         "sequence_mask",
         {{Tensor::zeros(DType::Int32, Shape(32, 1))}},
         {},
         {},
         bad,
         ""},
    };
    return all;
}

// sources: inputs hold slot * 1000 + i, so the expected source of an element is its value; -1 is
// null (a constant or a computed output).
struct SourceCase
{
    const char* name;
    const char* op;
    std::vector<std::vector<Tensor>> inputs;
    Attrs attrs;
    std::vector<std::vector<std::int64_t>> expect;
};

const std::vector<SourceCase>& sourceCases()
{
    static const std::vector<SourceCase> all = {
        {"gather", "gather", {{iota({3, 2})}, {i32({2}, {2, 0})}}, {}, {{4, 5, 0, 1}}},
        {"gather_nd", "gather_nd", {{iota({2, 2})}, {i32({2, 2}, {1, 0, 0, 1})}}, {}, {{2, 1}}},
        {"unique_with_counts",
         "unique_with_counts",
         {{i32({4}, {5, 7, 5, 9})}},
         {},
         {{0, 1, 3}, {-1, -1, -1, -1}, {-1, -1, -1}}},
        {"dynamic_partition",
         "dynamic_partition",
         {{iota({3})}, {i32({3}, {1, 0, 1})}},
         {{"num_partitions", 2}},
         {{1}, {0, 2}}},
        {"dynamic_stitch: data[m] is slot k + m, unwritten rows are null",
         "dynamic_stitch",
         {{i32({1}, {3}), i32({2}, {0, 3})}, {iota({1}, 2000), iota({2}, 3000)}},
         {},
         {{3000, -1, -1, 3001}}},
        {"boolean_mask", "boolean_mask", {{iota({2, 2})}, {bools({2}, {0, 1})}}, {}, {{2, 3}}},
        {"one_hot", "one_hot", {{i32({2}, {1, 0})}}, {{"depth", 2}}, {{-1, -1, -1, -1}}},
        {"sequence_mask", "sequence_mask", {{i32({2}, {1, 0})}}, {}, {{-1, -1}}},
    };
    return all;
}

std::int64_t sourceCode(std::int64_t s, std::int64_t slotScale)
{
    return s == kNoSource ? -1 : sourceSlot(s) * slotScale + sourceIndex(s);
}

// ---- differential tests against NumPy -----------------------------------------------------------

constexpr std::int64_t kSlotScale = 1000000; // tst_index_ops.py numbers input slot s from s * 1e6

using Rng = std::mt19937;

std::int64_t pick(Rng& g, std::int64_t lo, std::int64_t hi)
{
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(g);
}

Shape randomShape(Rng& g, std::int64_t rank, std::int64_t minDim, std::int64_t maxDim)
{
    Shape s;
    for (std::int64_t k = 0; k < rank; ++k)
        s.push_back(pick(g, minDim, maxDim));
    return s;
}

QJsonArray jsonInts(const std::vector<std::int64_t>& values)
{
    QJsonArray a;
    for (std::int64_t v : values)
        a.append(qint64(v));
    return a;
}

// The dtypes of the differential cases (the NumPy script names them).
const DType kDiffDTypes[] = {DType::Bool,    DType::Int8,    DType::UInt8,
                             DType::Int16,   DType::Int32,   DType::Int64,
                             DType::Float32, DType::Float64, DType::String};

Tensor randomData(Rng& g, const Shape& shape)
{
    return makeFilled(kDiffDTypes[pick(g, 0, 8)], shape, Fill::Arange, 0, Limits::machineDefault());
}

Tensor randomIndexTensor(Rng& g, const Shape& shape, const std::vector<std::int64_t>& values,
                         std::initializer_list<DType> dtypes)
{
    return ints(*(dtypes.begin() + pick(g, 0, std::int64_t(dtypes.size()) - 1)), shape, values);
}

struct DiffCase
{
    std::vector<std::vector<Tensor>> inputs;
    Attrs attrs;
    QJsonObject json;
};

DiffCase gatherCase(Rng& g)
{
    const std::int64_t r = pick(g, 1, 4);
    Shape ps = randomShape(g, r, 0, 4);
    const std::int64_t axis = pick(g, 0, r - 1);
    ps[std::size_t(axis)] = std::max<std::int64_t>(1, ps[std::size_t(axis)]);
    const std::int64_t ri = pick(g, 0, 3);
    const std::int64_t b = pick(g, 0, 1) ? pick(g, 0, std::min(axis, ri)) : 0;
    Shape is(ps.begin(), ps.begin() + b);
    const Shape rest = randomShape(g, ri - b, 0, 3);
    is.insert(is.end(), rest.begin(), rest.end());
    std::vector<std::int64_t> idx;
    for (std::int64_t i = 0; i < numElements(is); ++i)
        idx.push_back(pick(g, 0, ps[std::size_t(axis)] - 1));
    DiffCase c;
    c.inputs = {{randomData(g, ps)}, {randomIndexTensor(g, is, idx, {DType::Int32, DType::Int64})}};
    c.attrs = {{"axis", pick(g, 0, 2) ? axis : axis - r}, {"batch_dims", b}};
    c.json = {{"pshape", jsonInts(ps)},
              {"ishape", jsonInts(is)},
              {"idx", jsonInts(idx)},
              {"axis", qint64(axis)},
              {"bd", qint64(b)}};
    return c;
}

DiffCase gatherNdCase(Rng& g)
{
    const std::int64_t r = pick(g, 1, 4);
    const Shape ps = randomShape(g, r, 1, 4);
    const std::int64_t b = pick(g, 0, 2) ? 0 : pick(g, 0, r - 1);
    const std::int64_t k = pick(g, 1, r - b);
    Shape is(ps.begin(), ps.begin() + b);
    const Shape outer = randomShape(g, pick(g, 0, 2), 0, 3);
    is.insert(is.end(), outer.begin(), outer.end());
    is.push_back(k);
    std::vector<std::int64_t> idx;
    for (std::int64_t i = 0; i < numElements(is); ++i)
        idx.push_back(pick(g, 0, ps[std::size_t(b + i % k)] - 1));
    DiffCase c;
    c.inputs = {{randomData(g, ps)}, {randomIndexTensor(g, is, idx, {DType::Int32, DType::Int64})}};
    c.attrs = {{"batch_dims", b}};
    c.json = {{"pshape", jsonInts(ps)},
              {"ishape", jsonInts(is)},
              {"idx", jsonInts(idx)},
              {"bd", qint64(b)}};
    return c;
}

DiffCase uniqueCase(Rng& g)
{
    const std::int64_t n = pick(g, 0, 30);
    const bool floats = pick(g, 0, 1);
    const double pool[] = {0.0, -0.0, 1.5, 2.0, -3.0, 7.25};
    std::vector<double> x;
    for (std::int64_t i = 0; i < n; ++i)
        x.push_back(floats ? pool[pick(g, 0, 5)] : double(pick(g, 0, 5)));
    const DType dtype =
        floats ? (pick(g, 0, 1) ? DType::Float32 : DType::Float64) : kDiffDTypes[pick(g, 1, 5)];
    QJsonArray values;
    for (double v : x)
        values.append(v);
    DiffCase c;
    c.inputs = {{numbers(dtype, {n}, x)}};
    c.attrs = {{"out_idx", pick(g, 0, 1) ? "int32" : "int64"}};
    c.json = {{"x", values}, {"float", floats}};
    return c;
}

DiffCase booleanMaskCase(Rng& g)
{
    const std::int64_t r = pick(g, 1, 4);
    const Shape ts = randomShape(g, r, 0, 4);
    const std::int64_t k = pick(g, 1, r);
    const std::int64_t axis = pick(g, 0, r - k);
    const Shape ms(ts.begin() + axis, ts.begin() + axis + k);
    std::vector<std::int64_t> mask;
    for (std::int64_t i = 0; i < numElements(ms); ++i)
        mask.push_back(pick(g, 0, 1));
    // A negative axis passes TensorFlow's static check only if the mask ends before the last
    // dimension.
    const bool negative = axis + k < r && pick(g, 0, 1);
    DiffCase c;
    c.inputs = {{randomData(g, ts)}, {ints(DType::Bool, ms, mask)}};
    c.attrs = {{"axis", negative ? axis - r : axis}};
    c.json = {{"tshape", jsonInts(ts)},
              {"mshape", jsonInts(ms)},
              {"mask", jsonInts(mask)},
              {"axis", qint64(axis)}};
    return c;
}

DiffCase dynamicPartitionCase(Rng& g)
{
    const Shape ds = randomShape(g, pick(g, 0, 4), 0, 3);
    const Shape pshape(ds.begin(), ds.begin() + pick(g, 0, std::int64_t(ds.size())));
    const std::int64_t n = pick(g, 1, 4);
    std::vector<std::int64_t> part;
    for (std::int64_t i = 0; i < numElements(pshape); ++i)
        part.push_back(pick(g, 0, n - 1));
    DiffCase c;
    c.inputs = {{randomData(g, ds)}, {i32(pshape, part)}};
    c.attrs = {{"num_partitions", n}};
    c.json = {{"dshape", jsonInts(ds)},
              {"pshape", jsonInts(pshape)},
              {"part", jsonInts(part)},
              {"n", qint64(n)}};
    return c;
}

DiffCase dynamicStitchCase(Rng& g)
{
    const std::int64_t k = pick(g, 1, 3);
    const Shape slice = randomShape(g, pick(g, 0, 2), 0, 3);
    const DType dtype = kDiffDTypes[pick(g, 0, 8)];
    DiffCase c;
    c.inputs.resize(2);
    QJsonArray ishapes, dshapes, idx;
    for (std::int64_t m = 0; m < k; ++m) {
        const Shape is = randomShape(g, pick(g, 0, 2), 0, 3);
        std::vector<std::int64_t> values;
        for (std::int64_t i = 0; i < numElements(is); ++i)
            values.push_back(pick(g, 0, 7));
        Shape ds = is;
        ds.insert(ds.end(), slice.begin(), slice.end());
        c.inputs[0].push_back(i32(is, values));
        c.inputs[1].push_back(makeFilled(dtype, ds, Fill::Arange, 0, Limits::machineDefault()));
        ishapes.append(jsonInts(is));
        dshapes.append(jsonInts(ds));
        idx.append(jsonInts(values));
    }
    c.json = {{"ishapes", ishapes}, {"dshapes", dshapes}, {"idx", idx}};
    return c;
}

DiffCase oneHotCase(Rng& g)
{
    const Shape is = randomShape(g, pick(g, 0, 3), 0, 3);
    const std::int64_t depth = pick(g, 0, 4);
    std::vector<std::int64_t> idx;
    for (std::int64_t i = 0; i < numElements(is); ++i)
        idx.push_back(pick(g, -1, depth));
    const std::int64_t axis = pick(g, 0, 1) ? -1 : pick(g, 0, std::int64_t(is.size()));
    DiffCase c;
    c.inputs = {{randomIndexTensor(g, is, idx, {DType::Int8, DType::Int32, DType::Int64})}};
    c.attrs = {{"depth", depth}, {"axis", axis}, {"on_value", 1}, {"off_value", 0}};
    c.json = {{"ishape", jsonInts(is)},
              {"idx", jsonInts(idx)},
              {"depth", qint64(depth)},
              {"axis", qint64(axis)}};
    return c;
}

DiffCase sequenceMaskCase(Rng& g)
{
    const Shape ls = randomShape(g, pick(g, 0, 3), 0, 3);
    std::vector<std::int64_t> len;
    for (std::int64_t i = 0; i < numElements(ls); ++i)
        len.push_back(pick(g, -2, 6));
    DiffCase c;
    c.inputs = {
        {randomIndexTensor(g, ls, len, {DType::Int8, DType::Int16, DType::Int32, DType::Int64})}};
    c.json = {{"lshape", jsonInts(ls)}, {"len", jsonInts(len)}, {"maxlen", QJsonValue()}};
    if (pick(g, 0, 1)) {
        const std::int64_t maxlen = pick(g, 0, 6);
        c.attrs = {{"maxlen", maxlen}};
        c.json["maxlen"] = qint64(maxlen);
    }
    return c;
}

struct DiffOp
{
    const char* op;     // the engine's op name
    const char* script; // the function in tst_index_ops.py
    DiffCase (*generate)(Rng&);
    int sourceOutputs; // outputs compared by their sources; the rest by their values
};

const DiffOp kDiffOps[] = {
    {"gather", "gather", gatherCase, 1},
    {"gather_nd", "gather_nd", gatherNdCase, 1},
    {"unique_with_counts", "unique", uniqueCase, 1},
    {"boolean_mask", "boolean_mask", booleanMaskCase, 1},
    {"dynamic_partition", "dynamic_partition", dynamicPartitionCase, 4},
    {"dynamic_stitch", "dynamic_stitch", dynamicStitchCase, 1},
    {"one_hot", "one_hot", oneHotCase, 0},
    {"sequence_mask", "sequence_mask", sequenceMaskCase, 0},
};

// A trace that must say `fragment` (and never `absent`).
struct TraceCase
{
    const char* name;
    const char* op;
    std::vector<std::vector<Tensor>> inputs;
    Attrs attrs;
    std::string fragment;
    std::string absent;
};

const std::vector<TraceCase>& traceCases()
{
    static const std::vector<TraceCase> all = {
        {"gather of an empty slice checks no index",
         "gather",
         {{Tensor::zeros(DType::Int32, {3, 0})}, {i32({1}, {10})}},
         {},
         "Quirk: no index checks",
         ""},
        {"gather axis -1 keeps batch_dims",
         "gather",
         {{kP}, {i32({2, 2}, {2, 0, 1, 1})}},
         {{"axis", -1}, {"batch_dims", 1}},
         "Batch dimensions",
         "ignored"},
        {"one_hot's all-off lines",
         "one_hot",
         {{i32({3}, {0, 5, -1})}},
         {{"depth", 3}},
         "2 indices lie outside [0, 3)",
         ""},
        {"dynamic_stitch zero-fills rows never written",
         "dynamic_stitch",
         {{i32({2}, {0, 3})}, {iota({2})}},
         {},
         "2 rows are named by no index. TensorFlow's CPU kernel fills them with zeros",
         "uninitialised"},
        {"sequence_mask's int64 lengths wrap",
         "sequence_mask",
         {{i64({1}, {(std::int64_t(1) << 32) + 1})}},
         {{"maxlen", 3}},
         "Quirk: some int64 lengths",
         ""},
    };
    return all;
}

// Planning unique_with_counts of `x` (every value distinct) grows the heap by at most
// `bytesPerValue` bytes a value, measured as the workbench keeps its heap: never trimmed and no
// blocks of their own (keepFreedMemoryForReuse), so the planning's peak stays resident after the
// request. The heap's holes of 64 KB or more that earlier tests left are taken first, so the op's
// tables grow the heap by what they take at their peak wherever the test runs in the suite.
void checkUniquePlansInABoundedHeap(const Tensor& x, std::int64_t bytesPerValue)
{
#if !defined(__GLIBC__) || defined(SLICESCOPE_ASAN)
    Q_UNUSED(x);
    Q_UNUSED(bytesPerValue);
    QSKIP("needs glibc's heap (and no sanitizer's allocator)");
#else
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, -1);
    const auto restore = qScopeGuard([] {
        mallopt(M_MMAP_THRESHOLD, 128 * 1024);
        mallopt(M_TRIM_THRESHOLD, 128 * 1024);
    });
    std::vector<std::unique_ptr<char[]>> holes;
    for (auto arena = mallinfo2().arena; mallinfo2().arena == arena;)
        holes.push_back(std::make_unique<char[]>(64 * 1024));
    const auto heapBefore = std::int64_t(mallinfo2().arena);
    // The plan alone: runOp's sources are 8 bytes an element of every output.
    OpCall call(*findOp("unique_with_counts"), {{x}}, {}, Limits::machineDefault());
    const OpPlan plan = findOp("unique_with_counts")->plan(call);
    QCOMPARE(plan.outputs[0].shape, x.shape());
    const std::int64_t grown = std::int64_t(mallinfo2().arena) - heapBefore;
    qInfo("the heap grew by %.1f bytes a value", double(grown) / double(x.size()));
    QVERIFY2(grown <= bytesPerValue * x.size(),
             qPrintable(QString("the heap grew by %1 bytes a value")
                            .arg(double(grown) / double(x.size()))));
#endif
}

} // namespace

class TestIndexOps : public QObject
{
    Q_OBJECT
private slots:
    void examples_data()
    {
        QTest::addColumn<int>("index");
        for (int i = 0; i < int(exampleCases().size()); ++i)
            QTest::newRow(exampleCases()[std::size_t(i)].name) << i;
    }

    void examples()
    {
        QFETCH(int, index);
        const Case& c = exampleCases()[std::size_t(index)];
        const OpRun run = runOp(c.op, c.inputs, c.attrs);
        QCOMPARE(run.outputs.size(), c.expect.size());
        for (std::size_t k = 0; k < c.expect.size(); ++k)
            QVERIFY2(run.outputs[k].identical(c.expect[k]),
                     ("output " + std::to_string(k) + " is " + show(run.outputs[k]) +
                      ", expected " + show(c.expect[k]))
                         .c_str());
        QVERIFY(!run.plan.steps.empty());
        for (const Step& s : run.plan.steps)
            QVERIFY(!s.title.empty() && !s.detail.empty());
    }

    void errors_data()
    {
        QTest::addColumn<int>("index");
        for (int i = 0; i < int(errorCases().size()); ++i)
            QTest::newRow(errorCases()[std::size_t(i)].name) << i;
    }

    void errors()
    {
        QFETCH(int, index);
        const Case& c = errorCases()[std::size_t(index)];
        SS_EXPECT_ERROR(runOp(c.op, c.inputs, c.attrs), c.code, c.message);
    }

    void sources_data()
    {
        QTest::addColumn<int>("index");
        for (int i = 0; i < int(sourceCases().size()); ++i)
            QTest::newRow(sourceCases()[std::size_t(i)].name) << i;
    }

    void sources()
    {
        QFETCH(int, index);
        const SourceCase& c = sourceCases()[std::size_t(index)];
        const OpRun run = runOp(c.op, c.inputs, c.attrs);
        QCOMPARE(run.sources.size(), c.expect.size());
        for (std::size_t k = 0; k < c.expect.size(); ++k) {
            std::vector<std::int64_t> got;
            for (std::int64_t s : run.sources[k])
                got.push_back(sourceCode(s, 1000));
            QCOMPARE(got, c.expect[k]);
        }
    }

    // The trace names TensorFlow's quirks where they decide the answer.
    void quirksInTrace_data()
    {
        QTest::addColumn<int>("index");
        for (int i = 0; i < int(traceCases().size()); ++i)
            QTest::newRow(traceCases()[std::size_t(i)].name) << i;
    }

    void quirksInTrace()
    {
        QFETCH(int, index);
        const TraceCase& c = traceCases()[std::size_t(index)];
        const OpRun run = runOp(c.op, c.inputs, c.attrs);
        QStringList steps;
        for (const Step& s : run.plan.steps)
            steps << QString::fromStdString(s.title + ": " + s.detail);
        const QString trace = steps.join('\n');
        QVERIFY2(trace.contains(QString::fromStdString(c.fragment)), qPrintable(trace));
        if (!c.absent.empty())
            QVERIFY2(!trace.contains(QString::fromStdString(c.absent)), qPrintable(trace));
    }

    // The pure data-movement ops take every dtype; one_hot and sequence_mask produce every dtype.
    void everyDType_data()
    {
        QTest::addColumn<int>("dtype");
        for (DType t : kAllDTypes)
            QTest::newRow(std::string(dtypeName(t)).c_str()) << int(t);
    }

    void everyDType()
    {
        QFETCH(int, dtype);
        const DType t = DType(dtype);
        const Limits limits = Limits::machineDefault();
        const Tensor data = makeFilled(t, {4, 3}, Fill::Arange, 0, limits);
        auto check = [](const OpRun& run, std::size_t outputs) {
            QCOMPARE(run.outputs.size(), outputs);
            for (std::size_t k = 0; k < outputs; ++k)
                for (std::int64_t s : run.sources[k])
                    QVERIFY(s == kNoSource || (s >= 0 && sourceSlot(s) < int(run.inputs.size())));
        };
        check(runOp("gather", {{data}, {i32({2}, {3, 0})}}), 1);
        check(runOp("gather_nd", {{data}, {i32({2, 2}, {3, 2, 0, 1})}}), 1);
        // TensorFlow registers Unique for real numbers, bool and string: not for complex.
        if (isComplex(t))
            SS_EXPECT_ERROR(
                runOp("unique_with_counts", {{makeFilled(t, {6}, Fill::Random, 7, limits)}}),
                ErrorCode::InvalidArgument, "");
        else
            check(runOp("unique_with_counts", {{makeFilled(t, {6}, Fill::Random, 7, limits)}}), 3);
        check(
            runOp("dynamic_partition", {{data}, {i32({4}, {1, 0, 1, 1})}}, {{"num_partitions", 2}}),
            2);
        check(runOp("dynamic_stitch",
                    {{i32({2}, {2, 0})}, {makeFilled(t, {2, 3}, Fill::Arange, 0, limits)}}),
              1);
        check(runOp("boolean_mask", {{data}, {bools({4}, {1, 0, 0, 1})}}), 1);
        const Attr on = t == DType::String ? Attr("on") : t == DType::Bool ? Attr(true) : Attr(1);
        const Attr off = t == DType::String ? Attr("off")
                         : t == DType::Bool ? Attr(false)
                                            : Attr(0);
        const OpRun hot = runOp("one_hot", {{i32({2}, {1, 0})}},
                                {{"depth", 2},
                                 {"on_value", on},
                                 {"off_value", off},
                                 {"dtype", std::string(dtypeName(t))}});
        QCOMPARE(hot.outputs[0].dtype(), t);
        // indices [1, 0] with depth 2: [[off, on], [on, off]]
        if (t == DType::String) {
            QCOMPARE(hot.outputs[0].data<std::string>()[1], std::string("on"));
            QCOMPARE(hot.outputs[0].data<std::string>()[0], std::string("off"));
        } else {
            QCOMPARE(values(hot.outputs[0]), (std::vector<std::int64_t>{0, 1, 1, 0}));
        }
        if (t != DType::String) {
            const OpRun mask = runOp("sequence_mask", {{i32({1}, {1})}},
                                     {{"maxlen", 2}, {"dtype", std::string(dtypeName(t))}});
            QCOMPARE(mask.outputs[0].dtype(), t);
            QCOMPARE(values(mask.outputs[0]), (std::vector<std::int64_t>{1, 0}));
        }
    }

    // The 16-bit floats compare as numbers, as Eigen's half and bfloat16 do in TensorFlow's hash
    // map: -0 and +0 are one value, every NaN is a value of its own.
    void uniqueOfHalfFloats_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::newRow("float16") << int(DType::Float16);
        QTest::newRow("bfloat16") << int(DType::BFloat16);
    }

    void uniqueOfHalfFloats()
    {
        QFETCH(int, dtype);
        Tensor x = Tensor::empty(DType(dtype), {7});
        const double nan = std::numeric_limits<double>::quiet_NaN();
        for (const auto& [i, v] : std::vector<std::pair<int, double>>{
                 {0, 0.0}, {1, -0.0}, {2, nan}, {3, nan}, {4, 1.5}, {5, 1.5}, {6, -0.0}})
            x.setFromDouble(i, v);
        const OpRun run = runOp("unique_with_counts", {{x}});
        QCOMPARE(run.outputs[0].size(), std::int64_t(4));
        QCOMPARE(values(run.outputs[1]), (std::vector<std::int64_t>{0, 0, 1, 2, 3, 3, 0}));
        QCOMPARE(values(run.outputs[2]), (std::vector<std::int64_t>{3, 1, 1, 2}));
        QVERIFY(std::isnan(run.outputs[0].doubleAt(1)) && std::isnan(run.outputs[0].doubleAt(2)));
        QCOMPARE(run.outputs[0].doubleAt(3), 1.5);
    }

    // Erratum 23: y[idx[i]] == x[i] for every i < len(x) (not rank(x)).
    // Large stitches (range checks and row bitmaps in several parallel parts) against a loop: a
    // permutation, dense rows with duplicates, rows past the index count; later writers win,
    // unnamed rows are zero.
    void largeStitch_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<std::vector<std::int64_t>>("sizes"); // of each indices tensor
        QTest::newRow("permutation") << "permutation" << std::vector<std::int64_t>{300000};
        QTest::newRow("permutation, three parts")
            << "permutation" << std::vector<std::int64_t>{100000, 0, 150001, 49999};
        QTest::newRow("dense with duplicates")
            << "dense" << std::vector<std::int64_t>{170000, 130000};
        QTest::newRow("sparse past the count")
            << "sparse" << std::vector<std::int64_t>{90000, 110000};
        QTest::newRow("last index past the count")
            << "last" << std::vector<std::int64_t>{200000, 100000};
    }

    void largeStitch()
    {
        QFETCH(QString, kind);
        QFETCH(std::vector<std::int64_t>, sizes);
        std::int64_t total = 0;
        for (std::int64_t n : sizes)
            total += n;
        std::mt19937_64 rng(24);
        std::vector<std::int64_t> all(static_cast<std::size_t>(total));
        for (std::int64_t i = 0; i < total; ++i) {
            if (kind == "permutation")
                all[std::size_t(i)] = (i * 6700417 + 12345) % total; // 6700417 is prime
            else if (kind == "dense")
                all[std::size_t(i)] = std::int64_t(rng() % std::uint64_t(total - 7));
            else if (kind == "sparse")
                all[std::size_t(i)] = std::int64_t(rng() % std::uint64_t(3 * total));
            else
                all[std::size_t(i)] = i == total - 1 ? total : std::int64_t(rng() % 1000);
        }
        std::vector<Tensor> indices, data;
        std::int64_t at = 0;
        std::int64_t rows = 0;
        for (std::int64_t n : sizes) {
            std::vector<std::int64_t> part(all.begin() + at, all.begin() + at + n);
            for (std::int64_t v : part)
                rows = std::max(rows, v + 1);
            indices.push_back(i32({n}, part));
            data.push_back(iota({n, 2}, 2 * at + 1));
            at += n;
        }
        const OpRun run = runOp("dynamic_stitch", {indices, data});
        std::vector<std::int64_t> want(static_cast<std::size_t>(rows * 2), 0);
        for (std::size_t m = 0; m < indices.size(); ++m)
            for (std::int64_t i = 0; i < indices[m].size(); ++i)
                for (std::int64_t c = 0; c < 2; ++c)
                    want[std::size_t(indices[m].intAt(i) * 2 + c)] = data[m].intAt(i * 2 + c);
        QCOMPARE(run.outputs[0].shape(), (Shape{rows, 2}));
        QVERIFY(values(run.outputs[0]) == want);
    }

    // boolean_mask, dynamic_partition and unique (y) name the rows they pick by number, in the
    // narrowest index type that holds them (int16 here, int32 up to 2^31 rows), instead of a list
    // of 8-byte packed sources per row; a mask's outer blocks share one list. runOp checks that
    // every element equals its source.
    void pickedRowsAreNumbersNotARowList()
    {
        const OpRun masked =
            runOp("boolean_mask", {{iota({3, 4, 2})}, {ints(DType::Bool, {4}, {1, 0, 1, 1})}},
                  {{"axis", Attr(std::int64_t(1))}});
        QCOMPARE(masked.plan.outputs[0].pieces.size(), std::size_t(1));
        const auto* rows = std::get_if<IndexPiece>(&masked.plan.outputs[0].pieces[0]);
        QVERIFY(rows);
        QCOMPARE(rows->indices.dtype(), DType::Int16);
        QCOMPARE(rows->groups * rows->count, std::int64_t(9));
        QVERIFY(rows->indices.size() <= 4); // 3 rows and one spare write, not 3 x 3
        QVERIFY(values(masked.outputs[0]) ==
                (std::vector<std::int64_t>{0, 1, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 16, 17, 20, 21,
                                           22, 23}));

        const OpRun parts =
            runOp("dynamic_partition", {{iota({5, 2})}, {i32({5}, {1, 0, 1, 2, 1})}},
                  {{"num_partitions", Attr(std::int64_t(3))}});
        const std::vector<std::vector<std::int64_t>> want{{2, 3}, {0, 1, 4, 5, 8, 9}, {6, 7}};
        for (std::size_t k = 0; k < 3; ++k) {
            const auto* picked = std::get_if<IndexPiece>(&parts.plan.outputs[k].pieces.at(0));
            QVERIFY(picked);
            QCOMPARE(picked->indices.dtype(), DType::Int16);
            QVERIFY(values(parts.outputs[k]) == want[k]);
        }

        const OpRun distinct = runOp("unique_with_counts", {{i32({6}, {5, 5, 7, 5, 9, 7})}});
        const auto* firsts = std::get_if<IndexPiece>(&distinct.plan.outputs[0].pieces.at(0));
        QVERIFY(firsts);
        QCOMPARE(firsts->indices.dtype(), DType::Int16);
        QVERIFY(values(distinct.outputs[0]) == (std::vector<std::int64_t>{5, 7, 9}));
    }

    // one_hot along an inner axis reads its window of constants [off x depth, on, off x depth]
    // through one start per index (an IndexPiece of the constants), not a constant row per output
    // element (a RowsPiece of 8 bytes an element: 80 MB for 10^7). Axis 1 of a [2, 3] has groups
    // before the new axis, whose starts are offset to cancel them; out-of-range indices read all
    // off. runOp checks every element against its source.
    void oneHotAlongAnInnerAxisKeepsAStartPerIndex()
    {
        const Tensor indices = i32({2, 3}, {0, 3, -1, 2, 5, 1});
        const std::int64_t depth = 4;
        for (const std::int64_t axis : {0, 1}) {
            const OpRun run = runOp("one_hot", {{indices}},
                                    {{"depth", Attr(depth)},
                                     {"axis", Attr(axis)},
                                     {"on_value", Attr(std::int64_t(5))},
                                     {"off_value", Attr(std::int64_t(-2))}});
            QCOMPARE(run.plan.outputs[0].pieces.size(), std::size_t(1));
            const auto* starts = std::get_if<IndexPiece>(&run.plan.outputs[0].pieces[0]);
            QVERIFY(starts);
            QCOMPARE(starts->slot, kConstantSlot);
            QCOMPARE(starts->indices.size(), indices.size());
            QCOMPARE(run.plan.outputs[0].constants.size(), 2 * depth + 1);
            const std::int64_t outer = axis == 0 ? 1 : 2, inner = axis == 0 ? 6 : 3;
            std::vector<std::int64_t> want;
            for (std::int64_t p = 0; p < outer; ++p)
                for (std::int64_t d = 0; d < depth; ++d)
                    for (std::int64_t s = 0; s < inner; ++s)
                        want.push_back(indices.intAt(p * inner + s) == d ? 5 : -2);
            QVERIFY(values(run.outputs[0]) == want);
        }
    }

    // unique's working memory while it plans, measured as the workbench keeps it: its heap is never
    // trimmed (keepFreedMemoryForReuse), so the peak stays resident after the request. 750,000
    // distinct values: the table doubled when half full took 2^21 slots of 12 bytes (25 MB)
    // beside the 2^20 it grew from, and first occurrences and counts were 8-byte lists: the heap
    // grew by 67-71 bytes a value. Three quarters full, 2^20 slots of 8 bytes beside 2^19, first
    // occurrences and counts read from idx into y's row numbers and the count output: 24-27, of
    // which idx, count and the row numbers take 12.
    void uniqueWorkingMemoryStaysSmall()
    {
        const std::int64_t n = 750000;
        Tensor x = Tensor::empty(DType::Float32, {n});
        for (std::int64_t i = 0; i < n; ++i)
            x.data<float>()[i] = float((i * 7919) % n);
        checkUniquePlansInABoundedHeap(x, 40);
    }

    // Integers within a span of twice their count are numbered through a table indexed by value
    // (4 bytes a value of the span), not hashed: 750,000 distinct int32 in a span of 750,000
    // grow the heap by 12 bytes a value (idx, count and y's row numbers; the table freed before
    // the last two take its place), where the hash table took 24-27.
    void uniqueOfASpanOfIntegersHashesNothing()
    {
        const std::int64_t n = 750000;
        Tensor x = Tensor::empty(DType::Int32, {n});
        for (std::int64_t i = 0; i < n; ++i)
            x.data<std::int32_t>()[i] = std::int32_t((i * 7919) % n) - 1000;
        checkUniquePlansInABoundedHeap(x, 16);
    }

    // Integers in a span wider than twice their count, the extremes of int64 and values of other
    // integer widths: the same answer from the hash table and from the span's table.
    void uniqueOfIntegersInAndOutOfTheirSpan()
    {
        constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
        constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
        const struct
        {
            const char* name;
            Tensor x, y, idx, count;
        } cases[] = {
            {"int64 extremes: hashed", i64({5}, {kMax, kMin, kMax, 0, kMin}),
             i64({3}, {kMax, kMin, 0}), i32({5}, {0, 1, 0, 2, 1}), i32({3}, {2, 2, 1})},
            {"int64 near the minimum, a span of 2: indexed",
             i64({4}, {kMin + 2, kMin, kMin + 2, kMin}), i64({2}, {kMin + 2, kMin}),
             i32({4}, {0, 1, 0, 1}), i32({2}, {2, 2})},
            {"int8 across zero: indexed", numbers(DType::Int8, {5}, {2, -1, 0, -1, 2}),
             numbers(DType::Int8, {3}, {2, -1, 0}), i32({5}, {0, 1, 2, 1, 0}), i32({3}, {2, 2, 1})},
            {"uint8 over a span of 255: hashed", numbers(DType::UInt8, {3}, {255, 0, 255}),
             numbers(DType::UInt8, {2}, {255, 0}), i32({3}, {0, 1, 0}), i32({2}, {2, 1})},
            {"a span just under twice the count: indexed", i32({3}, {10, 15, 10}),
             i32({2}, {10, 15}), i32({3}, {0, 1, 0}), i32({2}, {2, 1})},
            {"a span of twice the count: hashed", i32({3}, {10, 16, 10}), i32({2}, {10, 16}),
             i32({3}, {0, 1, 0}), i32({2}, {2, 1})},
            {"bools: indexed", bools({4}, {0, 1, 1, 0}), bools({2}, {0, 1}),
             i32({4}, {0, 1, 1, 0}), i32({2}, {2, 2})},
        };
        for (const auto& c : cases) {
            const OpRun run = runOp("unique_with_counts", {{c.x}});
            QVERIFY2(show(run.outputs[0]) == show(c.y), c.name);
            QVERIFY2(show(run.outputs[1]) == show(c.idx), c.name);
            QVERIFY2(show(run.outputs[2]) == show(c.count), c.name);
        }
    }

    // The distinct-value table doubles when three quarters full, but not when the values left
    // cannot fill it past seven eighths: 49,152 distinct values fill 2^16 slots (512 KB) to three
    // quarters, and 1000 more would double them to 1 MB, kept beside the 512 KB they grew from.
    void uniqueDoesNotDoubleForItsLastValues()
    {
        const std::int64_t n = 49152 + 1000;
        Tensor x = Tensor::empty(DType::Int32, {n});
        for (std::int64_t i = 0; i < n; ++i)
            x.data<std::int32_t>()[i] = std::int32_t((i * 7919) % n * 3); // hashed: a wide span
        checkUniquePlansInABoundedHeap(x, 40);
    }

    void uniqueRebuildsX()
    {
        const Tensor x = i32({9}, {1, 1, 2, 4, 4, 4, 7, 8, 8});
        const OpRun run = runOp("unique_with_counts", {{x}});
        for (std::int64_t i = 0; i < x.size(); ++i)
            QCOMPARE(run.outputs[0].intAt(run.outputs[1].intAt(i)), x.intAt(i));
    }

    void differential_data()
    {
        QTest::addColumn<int>("index");
        for (int i = 0; i < int(std::size(kDiffOps)); ++i)
            QTest::newRow(kDiffOps[i].op) << i;
    }

    // A few hundred random cases per op, zero-size dimensions and rank 0 included; NumPy answers a
    // whole batch in one process.
    void differential()
    {
        QFETCH(int, index);
        const DiffOp& op = kDiffOps[index];
        QFile file(sourceDir() + "/tests/engine/tst_index_ops.py");
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
        const QString script = QString::fromUtf8(file.readAll());

        Rng g(20240611u + unsigned(index));
        constexpr int kCases = 300;
        std::vector<OpRun> runs;
        std::vector<QByteArray> requests;
        QByteArray input;
        for (int i = 0; i < kCases; ++i) {
            DiffCase c = op.generate(g);
            c.json["op"] = op.script;
            requests.push_back(QJsonDocument(c.json).toJson(QJsonDocument::Compact));
            input += requests.back() + '\n';
            runs.push_back(runOp(op.op, c.inputs, c.attrs));
        }
        QList<QByteArray> answers;
        try {
            answers = runNumpy(script, input).split('\n');
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        for (int i = 0; i < kCases; ++i) {
            const QJsonArray outputs =
                QJsonDocument::fromJson(answers[i]).object().value("outputs").toArray();
            const OpRun& run = runs[std::size_t(i)];
            QVERIFY2(std::size_t(outputs.size()) == run.outputs.size(),
                     requests[std::size_t(i)].constData());
            for (int k = 0; k < outputs.size(); ++k) {
                const QJsonObject expect = outputs[k].toObject();
                Shape shape;
                for (const QJsonValue v : expect.value("shape").toArray())
                    shape.push_back(v.toInteger());
                std::vector<std::int64_t> want;
                for (const QJsonValue v : expect.value("data").toArray())
                    want.push_back(v.toInteger());
                std::vector<std::int64_t> got;
                if (k < op.sourceOutputs)
                    for (std::int64_t s : run.sources[std::size_t(k)])
                        got.push_back(sourceCode(s, kSlotScale));
                else
                    got = values(run.outputs[std::size_t(k)]);
                const std::string where = "case " +
                                          std::string(requests[std::size_t(i)].constData()) +
                                          ", output " + std::to_string(k);
                QVERIFY2(run.outputs[std::size_t(k)].shape() == shape, where.c_str());
                QVERIFY2(got == want, where.c_str());
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestIndexOps)
#include "tst_index_ops.moc"
