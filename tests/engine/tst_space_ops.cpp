// SPDX-License-Identifier: GPL-3.0-or-later
// The space/batch/depth ops (TensorFlow's kernels): every worked example, the seed page's
// examples with their true results (errata 17-21, 27), every validation error, sources, traces,
// and differential tests against NumPy's textbook definitions (tst_space_ops.py).
#include "numpy_oracle.h"
#include "op_runner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <limits>
#include <random>

using namespace ss;
using namespace ss::testing;

// Runs an op that must succeed; an OpError fails the current test (row) with its message.
#define SS_RUN(run, ...)                                                                           \
    OpRun run;                                                                                     \
    try {                                                                                          \
        run = runOp(__VA_ARGS__);                                                                  \
    } catch (const ::ss::OpError& e_) {                                                            \
        QFAIL(e_.what());                                                                          \
    }

namespace {

using Ints = std::vector<std::int64_t>;

Ints count(std::int64_t first, std::int64_t last)
{
    Ints v;
    for (std::int64_t x = first; x <= last; ++x)
        v.push_back(x);
    return v;
}

Attr matrix(const std::vector<Ints>& rows)
{
    Attr::List list;
    for (const Ints& r : rows)
        list.push_back(Attr::ints(r));
    return list;
}

Attrs nd(const char* pairsName, const Ints& block, const std::vector<Ints>& pairs)
{
    return {{"block_shape", Attr::ints(block)}, {pairsName, matrix(pairs)}};
}
Attrs stb(const Ints& block, const std::vector<Ints>& paddings)
{
    return nd("paddings", block, paddings);
}
Attrs bts(const Ints& block, const std::vector<Ints>& crops)
{
    return nd("crops", block, crops);
}
Attrs legacy(const char* pairsName, const std::vector<Ints>& pairs, std::int64_t blockSize)
{
    return {{pairsName, matrix(pairs)}, {"block_size", blockSize}};
}
Attrs patches(const Ints& k, const Ints& s, const Ints& r, const char* padding)
{
    return {{"ksizes", Attr::ints(k)},
            {"strides", Attr::ints(s)},
            {"rates", Attr::ints(r)},
            {"padding", padding}};
}
Attrs block(std::int64_t b)
{
    return {{"block_size", b}};
}

const std::vector<Ints> kNoPad = {{0, 0}, {0, 0}};
const Ints k1 = {1, 1, 1, 1};
const std::int64_t kBig = std::int64_t(1) << 31;
const std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
// 13.3's output, as it really is (erratum 18), and the seed's wrong version of it.
const Ints kS2b3 = {1, 3, 9, 11, 2, 4, 10, 12, 5, 7, 13, 15, 6, 8, 14, 16};
const Ints kS2b3Seed = {1, 3, 5, 7, 2, 4, 10, 12, 5, 7, 13, 15, 6, 8, 14, 16};
const Ints kS2b4 = {0, 1, 3, 0, 9, 11, 0, 2, 4, 0, 10, 12, 0, 5, 7, 0, 13, 15, 0, 6, 8, 0, 14, 16};
const Ints kS2b5 = {1, 3, 9, 11, 2, 4, 10, 12, 5, 7, 13, 15, 6, 8, 14, 16};
const Ints kDepth16 = {1, 2, 5, 6, 3, 4, 7, 8, 9, 10, 13, 14, 11, 12, 15, 16};

struct Case
{
    const char* name;
    const char* op;
    Shape shape;
    Ints input; // empty: 1, 2, 3, ... as on the seed pages
    Attrs attrs;
    Shape expectShape;
    Ints expect;
    ErrorCode errorCode = ErrorCode::Internal; // Internal: no error expected
    std::string errorMessage;
};

const ErrorCode kInvalid = ErrorCode::InvalidArgument;

// The tables keep one case per row (or two), which clang-format would spread over many lines.
// clang-format off
const std::vector<Case>& cases()
{
    static const std::vector<Case> all = {
        // ---- 12: extract_image_patches, image 1..9 as [1,3,3,1] ----
        {"12 2x2 VALID", "extract_image_patches", {1, 3, 3, 1}, {},
         patches({1, 2, 2, 1}, k1, k1, "VALID"), {1, 2, 2, 4},
         {1, 2, 4, 5, 2, 3, 5, 6, 4, 5, 7, 8, 5, 6, 8, 9}},
        {"12 2x2 stride 2 SAME pads after", "extract_image_patches", {1, 3, 3, 1}, {},
         patches({1, 2, 2, 1}, {1, 2, 2, 1}, k1, "SAME"), {1, 2, 2, 4},
         {1, 2, 4, 5, 3, 0, 6, 0, 7, 8, 0, 0, 9, 0, 0, 0}},
        {"12 3x3 SAME", "extract_image_patches", {1, 3, 3, 1}, {},
         patches({1, 3, 3, 1}, k1, k1, "SAME"), {1, 3, 3, 9},
         {0, 0, 0, 0, 1, 2, 0, 4, 5,  0, 0, 0, 1, 2, 3, 4, 5, 6,  0, 0, 0, 2, 3, 0, 5, 6, 0,
          0, 1, 2, 0, 4, 5, 0, 7, 8,  1, 2, 3, 4, 5, 6, 7, 8, 9,  2, 3, 0, 5, 6, 0, 8, 9, 0,
          0, 4, 5, 0, 7, 8, 0, 0, 0,  4, 5, 6, 7, 8, 9, 0, 0, 0,  5, 6, 0, 8, 9, 0, 0, 0, 0}},
        {"12 rate 2 VALID on 4x4", "extract_image_patches", {1, 4, 4, 1}, {},
         patches({1, 2, 2, 1}, k1, {1, 2, 2, 1}, "VALID"), {1, 2, 2, 4},
         {1, 3, 9, 11, 2, 4, 10, 12, 5, 7, 13, 15, 6, 8, 14, 16}},
        {"12 VALID truncates to empty (2x2, k 3, stride 2)", "extract_image_patches", {1, 2, 2, 1},
         {}, patches({1, 3, 3, 1}, {1, 2, 2, 1}, k1, "VALID"), {1, 0, 0, 9}, {}},
        {"26.6 in 1, k_eff 4, stride 2 is empty", "extract_image_patches", {1, 1, 1, 1}, {},
         patches({1, 2, 2, 1}, {1, 2, 2, 1}, {1, 3, 3, 1}, "VALID"), {1, 0, 0, 4}, {}},
        {"26.6 in 1, k_eff 3, stride 1 is an error", "extract_image_patches", {1, 1, 1, 1}, {},
         patches({1, 3, 3, 1}, k1, k1, "VALID"), {}, {}, kInvalid,
         "Computed output size would be negative: -1 [input_size: 1, effective_filter_size: 3, "
         "stride: 1]"},
        {"columns negative after rows pass", "extract_image_patches", {1, 5, 1, 1}, {},
         patches({1, 3, 3, 1}, k1, k1, "VALID"), {}, {}, kInvalid,
         "Computed output size would be negative: -1 [input_size: 1, effective_filter_size: 3, "
         "stride: 1]"},
        {"depth 2, 2x1 VALID stride 2", "extract_image_patches", {1, 2, 2, 2}, {},
         patches({1, 2, 1, 1}, {1, 1, 2, 1}, k1, "VALID"), {1, 1, 1, 4}, {1, 2, 5, 6}},
        {"erratum 27: TF2 name 'sizes'", "extract_patches", {1, 3, 3, 1}, {},
         {{"sizes", Attr::ints({1, 2, 2, 1})}, {"strides", Attr::ints(k1)},
          {"rates", Attr::ints(k1)}, {"padding", "VALID"}},
         {1, 2, 2, 4}, {1, 2, 4, 5, 2, 3, 5, 6, 4, 5, 7, 8, 5, 6, 8, 9}},
        {"ksizes batch entry (message with spaces)", "extract_image_patches", {1, 3, 3, 1}, {},
         patches({2, 2, 2, 1}, k1, k1, "VALID"), {}, {}, ErrorCode::Unimplemented,
         "Only support ksizes across space."},
        {"rates depth entry (message with spaces)", "extract_image_patches", {1, 3, 3, 1}, {},
         patches({1, 2, 2, 1}, k1, {1, 1, 1, 2}, "VALID"), {}, {}, ErrorCode::Unimplemented,
         "Only support rates across space."},
        {"strides batch entry (message with spaces)", "extract_image_patches", {1, 3, 3, 1}, {},
         patches({1, 2, 2, 1}, {3, 1, 1, 1}, k1, "VALID"), {}, {}, ErrorCode::Unimplemented,
         "Only support strides across space."},
        {"strides 0 (message with spaces)", "extract_image_patches", {1, 3, 3, 1}, {},
         patches({1, 2, 2, 1}, {1, 0, 1, 1}, k1, "VALID"), {}, {}, ErrorCode::OutOfRange,
         "strides is out of range."},
        {"ksizes 0 (message with spaces)", "extract_image_patches", {1, 3, 3, 1}, {},
         patches({1, 2, 0, 1}, k1, k1, "SAME"), {}, {}, ErrorCode::OutOfRange,
         "ksizes is out of range."},
        {"rates 0 (message with spaces)", "extract_image_patches", {1, 3, 3, 1}, {},
         patches({1, 2, 2, 1}, k1, {1, 0, 1, 1}, "SAME"), {}, {}, ErrorCode::OutOfRange,
         "rates is out of range."},
        {"sizes alias: the message names ksizes", "extract_patches", {1, 3, 3, 1}, {},
         {{"sizes", Attr::ints({1, 0, 2, 1})}, {"strides", Attr::ints(k1)},
          {"rates", Attr::ints(k1)}, {"padding", "VALID"}},
         {}, {}, ErrorCode::OutOfRange, "ksizes is out of range."},
        {"ksizes too short", "extract_image_patches", {1, 3, 3, 1}, {},
         patches({1, 2, 2}, k1, k1, "VALID"), {}, {}, kInvalid,
         "Length for attr 'ksizes' of 3 must be at least minimum 4"},
        {"padding FULL", "extract_image_patches", {1, 3, 3, 1}, {},
         patches({1, 2, 2, 1}, k1, k1, "FULL"), {}, {}, kInvalid,
         "Value for attr 'padding' of \"FULL\" is not in the list of allowed values: \"SAME\", "
         "\"VALID\""},
        {"ksizes beyond int32", "extract_image_patches", {1, 3, 3, 1}, {},
         patches({1, kBig, 1, 1}, k1, k1, "VALID"), {}, {}, kInvalid,
         "Attr ksizes has value 2147483648 out of range for an int32"},
        {"images rank 3", "extract_image_patches", {3, 3, 1}, {},
         patches({1, 2, 2, 1}, k1, k1, "VALID"), {}, {}, kInvalid,
         "input must be 4-dimensional[3,3,1]"},
        {"patch depth beyond the limit", "extract_image_patches", {1, 1, 1, 1}, {},
         patches({1, 1 << 30, 1 << 30, 1}, k1, k1, "SAME"), {}, {}, ErrorCode::ResourceExhausted,
         ""},

        // ---- 13: space_to_batch_nd (and the seed's space_to_batch examples) ----
        {"13.1 [1,2,2,1]", "space_to_batch_nd", {1, 2, 2, 1}, {}, stb({2, 2}, kNoPad), {4, 1, 1, 1},
         {1, 2, 3, 4}},
        {"13.2 [1,2,2,3] (erratum 17)", "space_to_batch_nd", {1, 2, 2, 3}, {}, stb({2, 2}, kNoPad),
         {4, 1, 1, 3}, count(1, 12)},
        {"13.3 [1,4,4,1] (erratum 18)", "space_to_batch_nd", {1, 4, 4, 1}, {}, stb({2, 2}, kNoPad),
         {4, 2, 2, 1}, kS2b3},
        {"13.4 [2,2,4,1] padded", "space_to_batch_nd", {2, 2, 4, 1}, {},
         stb({2, 2}, {{0, 0}, {2, 0}}), {8, 1, 3, 1}, kS2b4},
        {"13.5 [2,2,4,1]", "space_to_batch_nd", {2, 2, 4, 1}, {}, stb({2, 2}, kNoPad), {8, 1, 2, 1},
         kS2b5},
        {"13.6 not divisible", "space_to_batch_nd", {1, 3, 2, 1}, {}, stb({2, 2}, kNoPad), {}, {},
         kInvalid, "padded_shape[0]=3 is not divisible by block_shape[0]=2"},
        {"legacy (1)", "space_to_batch", {1, 2, 2, 1}, {}, legacy("paddings", kNoPad, 2),
         {4, 1, 1, 1}, {1, 2, 3, 4}},
        {"legacy (2) (erratum 17)", "space_to_batch", {1, 2, 2, 3}, {},
         legacy("paddings", kNoPad, 2), {4, 1, 1, 3}, count(1, 12)},
        {"legacy (3) (erratum 18)", "space_to_batch", {1, 4, 4, 1}, {},
         legacy("paddings", kNoPad, 2), {4, 2, 2, 1}, kS2b3},
        {"legacy (4)", "space_to_batch", {2, 2, 4, 1}, {}, legacy("paddings", kNoPad, 2),
         {8, 1, 2, 1}, kS2b5},
        {"legacy padded", "space_to_batch", {2, 2, 4, 1}, {},
         legacy("paddings", {{0, 0}, {2, 0}}, 2), {8, 1, 3, 1}, kS2b4},
        {"one block dim, rest kept", "space_to_batch_nd", {1, 4, 2}, {}, stb({2}, {{1, 1}}),
         {2, 3, 2}, {0, 0, 3, 4, 7, 8, 1, 2, 5, 6, 0, 0}},
        {"no block dims: identity", "space_to_batch_nd", {2, 3}, {}, stb({}, {}), {2, 3},
         count(1, 6)},
        {"block 1 everywhere: identity", "space_to_batch_nd", {1, 2, 2}, {}, stb({1, 1}, kNoPad),
         {1, 2, 2}, count(1, 4)},
        {"block 1 with padding pads", "space_to_batch_nd", {1, 2}, {}, stb({1}, {{1, 0}}), {1, 3},
         {0, 1, 2}},
        {"folded dims lift the cap", "space_to_batch_nd", {1, 1, 2, 2, 2, 2, 1}, {},
         stb({1, 2, 2, 2, 2, 1}, {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}}),
         {16, 1, 1, 1, 1, 1, 1}, count(1, 16)},
        {"five block dims (InvalidArgument in TF)", "space_to_batch_nd", {1, 2, 2, 2, 2, 2}, {},
         stb({2, 2, 2, 2, 2}, {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}}), {}, {}, kInvalid,
         "Maximum number of non-combined block dimensions is 5 but must not exceed 4"},
        {"block_shape rank 2", "space_to_batch_nd", {1, 2, 2, 1}, {},
         {{"block_shape", matrix({{2, 2}})}, {"paddings", matrix(kNoPad)}}, {}, {}, kInvalid,
         "block_shape rank should be 1 instead of 2"},
        {"block_shape scalar", "space_to_batch_nd", {1, 2, 2, 1}, {},
         {{"block_shape", 2}, {"paddings", matrix(kNoPad)}}, {}, {}, kInvalid,
         "block_shape rank should be 1 instead of 0"},
        {"input rank too small", "space_to_batch_nd", {2, 2}, {}, stb({2, 2}, kNoPad), {}, {},
         kInvalid, "input rank should be >= 3 instead of 2"},
        {"paddings shape", "space_to_batch_nd", {1, 2, 2, 1}, {}, stb({2, 2}, {{0, 0}}), {}, {},
         kInvalid, "paddings should have shape [2, 2] instead of [1,2]"},
        {"paddings for no block dims", "space_to_batch_nd", {1, 2}, {}, stb({}, {{0, 0}}), {}, {},
         kInvalid, "paddings should have shape [0, 2] instead of [1,2]"},
        {"block [2,0]: the value check comes before the product", "space_to_batch_nd",
         {1, 2, 2, 1}, {}, stb({2, 0}, kNoPad), {}, {}, kInvalid,
         "All values in block_shape must be positive, got value, 0 at index 1."},
        {"block [-2,1]: the value check comes before the product", "space_to_batch_nd",
         {1, 2, 2, 1}, {}, stb({-2, 1}, kNoPad), {}, {}, kInvalid,
         "All values in block_shape must be positive, got value, -2 at index 0."},
        {"two negative blocks", "space_to_batch_nd", {1, 2, 2, 1}, {}, stb({-1, -1}, kNoPad), {},
         {}, kInvalid, "All values in block_shape must be positive, got value, -1 at index 0."},
        {"block product overflows: -1", "space_to_batch_nd", {1, 1, 1, 1}, {},
         stb({kBig * 2, kBig * 2}, kNoPad), {}, {}, kInvalid,
         "Product of block sizes must be positive, got -1"},
        {"a 0 after the product overflowed is still named", "space_to_batch_nd", {1, 1, 1, 1, 1},
         {}, stb({kBig * 2, kBig * 2, 0}, {{0, 0}, {0, 0}, {0, 0}}), {}, {}, kInvalid,
         "All values in block_shape must be positive, got value, 0 at index 2."},
        {"negative padding", "space_to_batch_nd", {1, 2, 2, 1}, {}, stb({2, 2}, {{0, 0}, {-1, 1}}),
         {}, {}, kInvalid, "Paddings must be non-negative"},
        {"second dim not divisible", "space_to_batch_nd", {1, 2, 2, 1}, {},
         stb({2, 2}, {{0, 0}, {1, 0}}), {}, {}, kInvalid,
         "padded_shape[1]=3 is not divisible by block_shape[1]=2"},
        {"batch times block overflows", "space_to_batch_nd", {2, 1}, {},
         stb({std::int64_t(1) << 62}, {{0, (std::int64_t(1) << 62) - 1}}), {}, {}, kInvalid,
         "Negative output dimension size caused by overflow when multiplying 2 and "
         "4611686018427387904"},
        {"padded size beyond 64 bits", "space_to_batch_nd", {1, 1}, {}, stb({2}, {{0, kMax}}), {},
         {}, kInvalid, "padded_shape[0]=1+0+9223372036854775807 does not fit in 64 bits"},
        {"output beyond the limit", "space_to_batch_nd", {1, 1}, {},
         stb({1}, {{0, std::int64_t(1) << 40}}), {}, {}, ErrorCode::ResourceExhausted, ""},
        {"legacy block size 1 (attr minimum)", "space_to_batch", {1, 2, 2, 1}, {},
         legacy("paddings", kNoPad, 1), {}, {}, kInvalid,
         "Value for attr 'block_size' of 1 must be at least minimum 2"},
        {"legacy block size 1 before the rank check", "space_to_batch", {2, 2, 1}, {},
         legacy("paddings", kNoPad, 1), {}, {}, kInvalid,
         "Value for attr 'block_size' of 1 must be at least minimum 2"},
        {"legacy rank 3", "space_to_batch", {2, 2, 1}, {}, legacy("paddings", kNoPad, 2), {}, {},
         kInvalid, "Input rank should be: 4instead of: 3"},
        {"legacy paddings shape", "space_to_batch", {1, 2, 2, 1}, {},
         legacy("paddings", {{0, 0}}, 2),
         {}, {}, kInvalid, "paddings should have shape [2, 2] instead of [1,2]"},
        {"legacy block beyond int32", "space_to_batch", {1, 2, 2, 1}, {},
         legacy("paddings", kNoPad, kBig), {}, {}, kInvalid,
         "Attr block_size has value 2147483648 out of range for an int32"},

        // ---- 15: batch_to_space_nd (and the seed's batch_to_space examples) ----
        {"15.1 [4,1,1,1]", "batch_to_space_nd", {4, 1, 1, 1}, {}, bts({2, 2}, kNoPad), {1, 2, 2, 1},
         {1, 2, 3, 4}},
        {"15.2 [4,1,1,3] (erratum 17)", "batch_to_space_nd", {4, 1, 1, 3}, {}, bts({2, 2}, kNoPad),
         {1, 2, 2, 3}, count(1, 12)},
        {"15.3 corrected input (erratum 19)", "batch_to_space_nd", {4, 2, 2, 1}, kS2b3,
         bts({2, 2}, kNoPad), {1, 4, 4, 1}, count(1, 16)},
        {"15.3 seed's input as printed (erratum 19)", "batch_to_space_nd", {4, 2, 2, 1}, kS2b3Seed,
         bts({2, 2}, kNoPad), {1, 4, 4, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 5, 10, 7, 12, 13, 14, 15, 16}},
        {"15.4 crops [[0,0],[2,0]]", "batch_to_space_nd", {8, 1, 3, 1}, kS2b4,
         bts({2, 2}, {{0, 0}, {2, 0}}), {2, 2, 4, 1}, count(1, 16)},
        {"15.5 zero crops", "batch_to_space_nd", {8, 1, 2, 1}, kS2b5, bts({2, 2}, kNoPad),
         {2, 2, 4, 1}, count(1, 16)},
        {"15.6 batch not divisible", "batch_to_space_nd", {3, 1, 1, 1}, {}, bts({2, 2}, kNoPad), {},
         {}, kInvalid, "Input batch dimension (3) is not divisible by product of block sizes (4)"},
        {"legacy (1)", "batch_to_space", {4, 1, 1, 1}, {}, legacy("crops", kNoPad, 2), {1, 2, 2, 1},
         {1, 2, 3, 4}},
        {"legacy (2) (erratum 17)", "batch_to_space", {4, 1, 1, 3}, {}, legacy("crops", kNoPad, 2),
         {1, 2, 2, 3}, count(1, 12)},
        {"legacy (3) (erratum 19)", "batch_to_space", {4, 2, 2, 1}, kS2b3,
         legacy("crops", kNoPad, 2), {1, 4, 4, 1}, count(1, 16)},
        {"legacy (4) (erratum 20)", "batch_to_space", {8, 1, 2, 1}, kS2b5,
         legacy("crops", kNoPad, 2), {2, 2, 4, 1}, count(1, 16)},
        {"crop both ends", "batch_to_space_nd", {2, 3}, {}, bts({2}, {{1, 2}}), {1, 3}, {4, 2, 5}},
        {"crop everything", "batch_to_space_nd", {2, 1, 2}, {}, bts({2}, {{1, 1}}), {1, 0, 2}, {}},
        {"batch 0 divides anything", "batch_to_space_nd", {0, 2, 1}, {}, bts({3}, {{1, 0}}),
         {0, 5, 1}, {}},
        {"five block dims (InvalidArgument in TF)", "batch_to_space_nd", {32, 1, 1, 1, 1, 1}, {},
         bts({2, 2, 2, 2, 2}, {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}}), {}, {}, kInvalid,
         "Maximum number of non-combined block dimensions is 5 but must not exceed 4"},
        {"divisibility before the cap", "batch_to_space_nd", {31, 1, 1, 1, 1, 1}, {},
         bts({2, 2, 2, 2, 2}, {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}}), {}, {}, kInvalid,
         "Input batch dimension (31) is not divisible by product of block sizes (32)"},
        {"crops shape", "batch_to_space_nd", {4, 1, 1, 1}, {},
         {{"block_shape", Attr::ints({2, 2})}, {"crops", Attr::ints({0, 0})}}, {}, {}, kInvalid,
         "crops should have shape [2, 2] instead of [2]"},
        {"input rank too small", "batch_to_space_nd", {4}, {}, bts({2}, {{0, 0}}), {}, {}, kInvalid,
         "input rank should be >= 2 instead of 1"},
        {"block product 0", "batch_to_space_nd", {4, 1, 1, 1}, {}, bts({0, 2}, kNoPad), {}, {},
         kInvalid, "Product of block sizes must be positive, got 0"},
        {"two negative blocks reach the crop check (no value check)", "batch_to_space_nd",
         {4, 1, 1, 1}, {}, bts({-2, -2}, kNoPad), {}, {}, kInvalid,
         "cropped_shape[0]=-2 must be non-negative"},
        {"two negative blocks over empty dims: empty output", "batch_to_space_nd", {4, 0, 0, 1},
         {}, bts({-2, -2}, kNoPad), {1, 0, 0, 1}, {}},
        {"negative crop", "batch_to_space_nd", {4, 1, 1, 1}, {}, bts({2, 2}, {{0, -1}, {0, 0}}), {},
         {}, kInvalid, "Crops must be non-negative"},
        {"crops bigger than the size", "batch_to_space_nd", {4, 1, 1, 1}, {},
         bts({2, 2}, {{0, 0}, {2, 1}}), {}, {}, kInvalid,
         "cropped_shape[1]=-1 must be non-negative"},
        {"empty batch, size times block beyond 64 bits", "batch_to_space_nd", {0, 3}, {},
         bts({std::int64_t(1) << 62}, {{0, 0}}), {}, {}, kInvalid,
         "cropped_shape[0]: 3 * 4611686018427387904 does not fit in 64 bits"},
        {"crops beyond 64 bits", "batch_to_space_nd", {2, 1}, {}, bts({2}, {{kMax, kMax}}), {}, {},
         kInvalid,
         "cropped_shape[0]=2-9223372036854775807-9223372036854775807 must be non-negative"},
        {"legacy block size 0 (attr minimum)", "batch_to_space", {4, 1, 1, 1}, {},
         legacy("crops", kNoPad, 0), {}, {}, kInvalid,
         "Value for attr 'block_size' of 0 must be at least minimum 2"},
        {"legacy rank 5", "batch_to_space", {4, 1, 1, 1, 1}, {}, legacy("crops", kNoPad, 2), {}, {},
         kInvalid, "Input rank should be: 4instead of: 5"},

        // ---- 16: space_to_depth / depth_to_space ----
        {"16 StD [1,2,2,1]", "space_to_depth", {1, 2, 2, 1}, {}, block(2), {1, 1, 1, 4},
         {1, 2, 3, 4}},
        {"16 StD [1,2,2,3]", "space_to_depth", {1, 2, 2, 3}, {}, block(2), {1, 1, 1, 12},
         count(1, 12)},
        {"seed StD [1,4,4,1]", "space_to_depth", {1, 4, 4, 1}, kDepth16, block(2), {1, 2, 2, 4},
         count(1, 16)},
        {"16 DtS [1,2,2,4] (erratum 21)", "depth_to_space", {1, 2, 2, 4}, {}, block(2),
         {1, 4, 4, 1}, kDepth16},
        {"16 DtS [1,1,1,12]", "depth_to_space", {1, 1, 1, 12}, {}, block(2), {1, 2, 2, 3},
         count(1, 12)},
        {"seed DtS [1,1,1,4]", "depth_to_space", {1, 1, 1, 4}, {}, block(2), {1, 2, 2, 1},
         {1, 2, 3, 4}},
        {"DtS block 3", "depth_to_space", {1, 1, 2, 9}, {}, block(3), {1, 3, 6, 1},
         {1, 2, 3, 10, 11, 12, 4, 5, 6, 13, 14, 15, 7, 8, 9, 16, 17, 18}},
        {"16 DtS depth 6", "depth_to_space", {1, 1, 1, 6}, {}, block(2), {}, {}, kInvalid,
         "Input depth dimension 6 should be divisible by: 4"},
        {"StD height 3", "space_to_depth", {1, 3, 2, 1}, {}, block(2), {}, {}, kInvalid,
         "Image width 2 and height 3 should be divisible by block_size: 2"},
        {"StD block 1 (erratum 21, attr minimum)", "space_to_depth", {1, 2, 2, 1}, {}, block(1), {},
         {}, kInvalid, "Value for attr 'block_size' of 1 must be at least minimum 2"},
        {"DtS block 1 (erratum 21, attr minimum)", "depth_to_space", {1, 1, 1, 4}, {}, block(1), {},
         {}, kInvalid, "Value for attr 'block_size' of 1 must be at least minimum 2"},
        {"DtS block -3 before the format check", "depth_to_space", {1, 1, 1, 4}, {},
         {{"block_size", -3}, {"data_format", "NWHC"}}, {}, {}, kInvalid,
         "Value for attr 'block_size' of -3 must be at least minimum 2"},
        {"StD block -2^31-1: the minimum before the int32 range", "space_to_depth", {1, 2, 2, 1},
         {}, block(-kBig - 1), {}, {}, kInvalid,
         "Value for attr 'block_size' of -2147483649 must be at least minimum 2"},
        {"StD rank 3", "space_to_depth", {2, 2, 1}, {}, block(2), {}, {}, kInvalid,
         "Input rank should be 4 instead of 3"},
        {"DtS rank 5", "depth_to_space", {1, 1, 1, 1, 4}, {}, block(2), {}, {}, kInvalid,
         "Input rank should be: 4 instead of: 5"},
        {"StD NCHW", "space_to_depth", {1, 2, 2, 1}, {},
         {{"block_size", 2}, {"data_format", "NCHW"}},
         {}, {}, kInvalid, "Only NHWC data_format supported on CPU. Got NCHW"},
        {"DtS NHWC spelled out", "depth_to_space", {1, 1, 1, 4}, {},
         {{"block_size", 2}, {"data_format", "NHWC"}}, {1, 2, 2, 1}, {1, 2, 3, 4}},
        {"DtS unknown format", "depth_to_space", {1, 1, 1, 4}, {},
         {{"block_size", 2}, {"data_format", "NWHC"}}, {}, {}, kInvalid,
         "Value for attr 'data_format' of \"NWHC\" is not in the list of allowed values: \"NHWC\", "
         "\"NCHW\", \"NCHW_VECT_C\""},
        {"StD block beyond int32", "space_to_depth", {1, 2, 2, 1}, {}, block(kBig), {}, {},
         kInvalid, "Attr block_size has value 2147483648 out of range for an int32"},
        {"StD block missing", "space_to_depth", {1, 2, 2, 1}, {}, {}, {}, {}, ErrorCode::BadRequest,
         ""},
        {"StD block as a string", "space_to_depth", {1, 2, 2, 1}, {}, {{"block_size", "2"}}, {}, {},
         ErrorCode::BadRequest, ""},
    };
    return all;
}
// clang-format on

Tensor caseInput(const Case& c)
{
    return i32(c.shape, c.input.empty() ? count(1, numElements(c.shape)) : c.input);
}

struct PaddingsCase
{
    const char* name;
    Attrs attrs;
    Shape shape;
    Ints paddings, crops;
    std::string error; // non-empty: invalid_argument with this message
};

// clang-format off
const std::vector<PaddingsCase>& paddingsCases()
{
    auto a = [](Ints in, Ints blocks, std::vector<Ints> base) {
        Attrs attrs = {{"input_shape", Attr::ints(in)}, {"block_shape", Attr::ints(blocks)}};
        if (!base.empty())
            attrs["base_paddings"] = matrix(base);
        return attrs;
    };
    static const std::vector<PaddingsCase> all = {
        {"14 [5,7] by [2,3], base [[0,0],[1,1]]", a({5, 7}, {2, 3}, {{0, 0}, {1, 1}}), {2, 2},
         {0, 1, 1, 1}, {0, 1, 0, 0}},
        {"14 [3] by [2]", a({3}, {2}, {}), {1, 2}, {0, 1}, {0, 1}},
        {"14 [4] by [2]", a({4}, {2}, {}), {1, 2}, {0, 0}, {0, 0}},
        {"no block dims ignores input_shape", a({3, 4, 5}, {}, {}), {0, 2}, {}, {}},
        {"negative block follows floor mod", a({3}, {-2}, {}), {1, 2}, {0, -1}, {0, -1}},
        {"block_shape rank 2", {{"input_shape", Attr::ints({3})}, {"block_shape", matrix({{2}})}},
         {}, {}, {}, "block_shape must have rank 1, but its shape is [1,1]"},
        {"input_shape length", a({3, 4}, {2}, {}), {}, {}, {},
         "input_shape must have shape [1] to match block_shape, but its shape is [2]"},
        {"base_paddings shape", a({3}, {2}, {{1}}), {}, {}, {},
         "base_paddings must have shape [1, 2] to match block_shape, but its shape is [1,1]"},
        {"block 0", a({3}, {0}, {}), {}, {}, {},
         "block_shape[0] is 0: no padding makes a dimension divisible by 0"},
        {"input_shape beyond int32", a({kBig}, {2}, {}), {}, {}, {},
         "input_shape[0] = 2147483648 does not fit in int32"},
        {"base beyond int32", a({3}, {2}, {{0, -kBig - 1}}), {}, {}, {},
         "base_paddings[0][1] = -2147483649 does not fit in int32"},
        {"result beyond int32", a({std::numeric_limits<std::int32_t>::max()}, {2}, {{0, 1}}), {},
         {},
         {}, "dimension 0: input_shape + base_paddings + extra = 2147483648 does not fit in int32"},
    };
    return all;
}
// clang-format on

// ---- differential tests ----

QJsonArray jsonInts(const Ints& v)
{
    QJsonArray a;
    for (std::int64_t x : v)
        a.append(qint64(x));
    return a;
}
QJsonArray jsonPairs(const std::vector<Ints>& rows)
{
    QJsonArray a;
    for (const Ints& r : rows)
        a.append(jsonInts(r));
    return a;
}

// One random request: the engine's op and attributes, and the same request for the oracle.
struct Random
{
    std::string op;
    Shape shape;
    Attrs attrs;
    QJsonObject request;
};

class Generator
{
public:
    std::int64_t pick(std::int64_t lo, std::int64_t hi)
    {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(m_rng);
    }
    bool chance(int percent) { return pick(1, 100) <= percent; }

    Random spaceToBatch()
    {
        const std::int64_t m = pick(0, 3);
        Ints blocks;
        std::vector<Ints> pads;
        Shape shape = {chance(10) ? 0 : pick(1, 3)};
        for (std::int64_t i = 0; i < m; ++i) {
            const std::int64_t b = pick(1, 3), size = chance(10) ? 0 : pick(1, 5),
                               start = pick(0, 2);
            std::int64_t end = (b - (size + start) % b) % b + b * pick(0, 1);
            if (chance(10)) end = pick(0, 3);
            blocks.push_back(b);
            pads.push_back({start, end});
            shape.push_back(size);
        }
        addRest(shape);
        return blockCase("space_to_batch_nd", "paddings", shape, blocks, pads);
    }

    Random batchToSpace()
    {
        const std::int64_t m = pick(0, 3);
        Ints blocks;
        std::vector<Ints> crops;
        Shape shape = {0};
        std::int64_t product = 1;
        for (std::int64_t i = 0; i < m; ++i) {
            const std::int64_t b = pick(1, 3), size = chance(10) ? 0 : pick(1, 4);
            const std::int64_t start = pick(0, size * b);
            const std::int64_t end = chance(90) ? pick(0, size * b - start) : pick(0, 4);
            blocks.push_back(b);
            crops.push_back({start, end});
            shape.push_back(size);
            product *= b;
        }
        shape[0] = (chance(10) ? 0 : pick(1, 3)) * product + (chance(10) ? 1 : 0);
        addRest(shape);
        return blockCase("batch_to_space_nd", "crops", shape, blocks, crops);
    }

    Random extractPatches()
    {
        const Shape shape = {pick(0, 2), pick(0, 7), pick(0, 7), pick(0, 2)};
        const Ints k = {1, pick(1, 4), pick(1, 4), 1}, s = {1, pick(1, 3), pick(1, 3), 1},
                   r = {1, pick(1, 3), pick(1, 3), 1};
        const char* padding = chance(50) ? "SAME" : "VALID";
        QJsonObject q{{"op", "patches"},
                      {"k", jsonInts({k[1], k[2]})},
                      {"s", jsonInts({s[1], s[2]})},
                      {"r", jsonInts({r[1], r[2]})},
                      {"padding", padding}};
        return finish("extract_image_patches", shape, patches(k, s, r, padding), q);
    }

    Random depth(bool toDepth)
    {
        const std::int64_t b = pick(2, 3);
        Shape shape = {pick(0, 2), pick(0, 3), pick(0, 3), pick(0, 3)};
        if (toDepth) {
            shape[1] = shape[1] * b + (chance(10) ? 1 : 0);
            shape[2] = shape[2] * b + (chance(10) ? 1 : 0);
        } else {
            shape[3] = shape[3] * b * b + (chance(10) ? 1 : 0);
        }
        return finish(toDepth ? "space_to_depth" : "depth_to_space", shape, block(b),
                      {{"op", toDepth ? "space_to_depth" : "depth_to_space"}, {"b", qint64(b)}});
    }

    Random requiredPaddings()
    {
        Ints in, blocks;
        std::vector<Ints> base;
        for (std::int64_t i = pick(0, 3); i > 0; --i) {
            in.push_back(pick(0, 20));
            blocks.push_back(pick(1, 5));
            base.push_back({pick(0, 3), pick(0, 3)});
        }
        Random r;
        r.op = "required_space_to_batch_paddings";
        r.attrs = {{"input_shape", Attr::ints(in)},
                   {"block_shape", Attr::ints(blocks)},
                   {"base_paddings", matrix(base)}};
        r.request = {{"op", "required"},
                     {"input_shape", jsonInts(in)},
                     {"block", jsonInts(blocks)},
                     {"base", jsonPairs(base)}};
        return r;
    }

private:
    // Up to two trailing dimensions that ride along unchanged.
    void addRest(Shape& shape)
    {
        for (std::int64_t k = pick(0, 2); k > 0 && shape.size() < 6; --k)
            shape.push_back(chance(5) ? 0 : pick(1, 3));
    }

    Random blockCase(const char* op, const char* pairsName, const Shape& shape, const Ints& blocks,
                     const std::vector<Ints>& pairs)
    {
        return finish(op, shape, nd(pairsName, blocks, pairs),
                      {{"op", op}, {"block", jsonInts(blocks)}, {"pairs", jsonPairs(pairs)}});
    }

    Random finish(const char* op, const Shape& shape, Attrs attrs, QJsonObject request)
    {
        request["shape"] = jsonInts(shape);
        return {op, shape, std::move(attrs), std::move(request)};
    }

    std::mt19937_64 m_rng{20240611};
};

QString oracleScript()
{
    QFile f(sourceDir() + QStringLiteral("/tests/engine/tst_space_ops.py"));
    if (!f.open(QIODevice::ReadOnly))
        throw std::runtime_error("cannot read " + f.fileName().toStdString());
    return QString::fromUtf8(f.readAll());
}

Ints jsonToInts(const QJsonArray& a)
{
    Ints v;
    for (const QJsonValue& x : a)
        v.push_back(x.toInteger());
    return v;
}

} // namespace

class TestSpaceOps : public QObject
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
        if (c.errorCode != ErrorCode::Internal) {
            SS_EXPECT_ERROR(runOp(c.op, {{caseInput(c)}}, c.attrs), c.errorCode, c.errorMessage);
            return;
        }
        SS_RUN(run, c.op, {{caseInput(c)}}, c.attrs);
        QCOMPARE(run.outputs.size(), std::size_t(1));
        QCOMPARE(shapeString(run.outputs[0].shape()), shapeString(c.expectShape));
        QCOMPARE(values(run.outputs[0]), c.expect);
    }

    void requiredPaddings_data()
    {
        QTest::addColumn<int>("index");
        for (int i = 0; i < int(paddingsCases().size()); ++i)
            QTest::newRow(paddingsCases()[std::size_t(i)].name) << i;
    }

    void requiredPaddings()
    {
        QFETCH(int, index);
        const PaddingsCase& c = paddingsCases()[std::size_t(index)];
        if (!c.error.empty()) {
            SS_EXPECT_ERROR(runOp("required_space_to_batch_paddings", {}, c.attrs), kInvalid,
                            c.error);
            return;
        }
        SS_RUN(run, "required_space_to_batch_paddings", {}, c.attrs);
        QCOMPARE(run.outputs.size(), std::size_t(2));
        for (const Tensor& t : run.outputs) {
            QCOMPARE(t.dtype(), DType::Int32);
            QCOMPARE(shapeString(t.shape()), shapeString(c.shape));
        }
        QCOMPARE(values(run.outputs[0]), c.paddings);
        QCOMPARE(values(run.outputs[1]), c.crops);
        for (const auto& sources : run.sources)
            for (std::int64_t s : sources)
                QCOMPARE(s, kNoSource);
    }

    // Inputs hold 1 + flat index, so a copied element names its source and padding reads 0.
    void sources_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QList<qint64>>("shape");
        QTest::addColumn<int>("attrs");
        QTest::addColumn<QList<qint64>>("expect"); // source index per output element, -1: none
        QTest::newRow("space_to_batch_nd 13.4")
            << "space_to_batch_nd" << QList<qint64>{2, 2, 4, 1} << 0
            << QList<qint64>{-1, 0, 2, -1, 8,  10, -1, 1, 3, -1, 9,  11,
                             -1, 4, 6, -1, 12, 14, -1, 5, 7, -1, 13, 15};
        QTest::newRow("patches 2x2 stride 2 SAME")
            << "extract_image_patches" << QList<qint64>{1, 3, 3, 1} << 1
            << QList<qint64>{0, 1, 3, 4, 2, -1, 5, -1, 6, 7, -1, -1, 8, -1, -1, -1};
        QTest::newRow("batch_to_space_nd cropped")
            << "batch_to_space_nd" << QList<qint64>{2, 3} << 2 << QList<qint64>{3, 1, 4};
        QTest::newRow("depth_to_space 2x2") << "depth_to_space" << QList<qint64>{1, 1, 2, 4} << 3
                                            << QList<qint64>{0, 1, 4, 5, 2, 3, 6, 7};
        QTest::newRow("space_to_depth 2x2") << "space_to_depth" << QList<qint64>{1, 2, 4, 1} << 3
                                            << QList<qint64>{0, 1, 4, 5, 2, 3, 6, 7};
    }

    void sources()
    {
        QFETCH(QString, op);
        QFETCH(QList<qint64>, shape);
        QFETCH(int, attrs);
        QFETCH(QList<qint64>, expect);
        const std::vector<Attrs> attrTable = {stb({2, 2}, {{0, 0}, {2, 0}}),
                                              patches({1, 2, 2, 1}, {1, 2, 2, 1}, k1, "SAME"),
                                              bts({2}, {{1, 2}}), block(2)};
        const Shape s(shape.begin(), shape.end());
        SS_RUN(run, op.toStdString(), {{iota(s, 1)}}, attrTable[std::size_t(attrs)]);
        const auto& sources = run.sources[0];
        QCOMPARE(qsizetype(sources.size()), expect.size());
        for (qsizetype i = 0; i < expect.size(); ++i) {
            const std::int64_t src = sources[std::size_t(i)];
            const std::int64_t value = run.outputs[0].intAt(i);
            if (expect[i] < 0) {
                QCOMPARE(src, kNoSource);
                QCOMPARE(value, 0);
            } else {
                QCOMPARE(sourceSlot(src), 0);
                QCOMPARE(sourceIndex(src), expect[i]);
                QCOMPARE(value, expect[i] + 1);
            }
        }
    }

    void dtypes_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<bool>("takesAll");
        QTest::newRow("extract_image_patches") << "extract_image_patches" << false;
        QTest::newRow("space_to_batch_nd") << "space_to_batch_nd" << false;
        QTest::newRow("space_to_batch") << "space_to_batch" << false;
        QTest::newRow("batch_to_space_nd") << "batch_to_space_nd" << false;
        QTest::newRow("batch_to_space") << "batch_to_space" << false;
        QTest::newRow("space_to_depth (TF_CALL_ALL_TYPES)") << "space_to_depth" << true;
        QTest::newRow("depth_to_space (TF_CALL_ALL_TYPES)") << "depth_to_space" << true;
    }

    // Real numbers move bit for bit everywhere; bool and strings only in the depth ops.
    void dtypes()
    {
        QFETCH(QString, op);
        QFETCH(bool, takesAll);
        const std::string name = op.toStdString();
        const std::map<std::string, Attrs> attrs = {
            {"extract_image_patches", patches({1, 2, 2, 1}, {1, 2, 2, 1}, k1, "VALID")},
            {"space_to_batch_nd", stb({2, 2}, kNoPad)},
            {"space_to_batch", legacy("paddings", kNoPad, 2)},
            {"batch_to_space_nd", bts({2, 2}, kNoPad)},
            {"batch_to_space", legacy("crops", kNoPad, 2)},
            {"space_to_depth", block(2)},
            {"depth_to_space", block(2)}};
        const Shape shape = {4, 2, 2, 4};
        for (DType t : kAllDTypes) {
            if (t == DType::String) continue; // below
            Tensor input = iota(shape, 0, t);
            if (t == DType::Float64)
                input.setFromDouble(5, std::numeric_limits<double>::quiet_NaN());
            if (isComplex(t) && !takesAll) {
                // TF_CALL_REAL_NUMBER_TYPES has no complex kernel either.
                SS_EXPECT_ERROR(runOp(name, {{input}}, attrs.at(name)), kInvalid,
                                "input '" + def(name).inputs[0].name + "' has dtype " +
                                    std::string(dtypeName(t)) + ", but " + name +
                                    " takes real numbers only (int8, uint8, int16, uint16, int32, "
                                    "uint32, int64, uint64, float16, bfloat16, float32, float64)");
                continue;
            }
            if (t == DType::Bool && !takesAll) {
                SS_EXPECT_ERROR(runOp(name, {{input}}, attrs.at(name)), kInvalid,
                                "input '" + def(name).inputs[0].name + "' has dtype bool, but " +
                                    name +
                                    " takes real numbers only (int8, uint8, int16, uint16, int32, "
                                    "uint32, int64, uint64, float16, bfloat16, float32, float64)");
                continue;
            }
            // runOp checks every element bit for bit against its source (NaN included).
            SS_RUN(run, name, {{input}}, attrs.at(name));
            QCOMPARE(run.outputs[0].dtype(), t);
        }
        std::vector<std::string> words;
        for (int i = 0; i < 64; ++i)
            words.push_back("w" + std::to_string(i));
        const Tensor text = strings(shape, words);
        if (!takesAll) {
            SS_EXPECT_ERROR(runOp(name, {{text}}, attrs.at(name)), kInvalid,
                            "input '" + def(name).inputs[0].name + "' has dtype string, but " +
                                name +
                                " takes real numbers only (int8, uint8, int16, uint16, int32, "
                                "uint32, int64, uint64, float16, bfloat16, float32, float64)");
            return;
        }
        // runOp checks every string against its source; the numeric run gives the same sources.
        SS_RUN(moved, name, {{text}}, attrs.at(name));
        SS_RUN(reference, name, {{iota(shape)}}, attrs.at(name));
        QCOMPARE(moved.outputs[0].dtype(), DType::String);
        QCOMPARE(moved.sources, reference.sources);
    }

    // The trace walks the textbook stages with the intermediate shapes.
    void traces()
    {
        auto titled = [](const OpRun& run, const std::string& title) -> const Step* {
            for (const Step& s : run.plan.steps)
                if (s.title == title) return &s;
            return nullptr;
        };
        SS_RUN(s2b, "space_to_batch_nd", {{iota({2, 2, 4, 1})}}, stb({2, 2}, {{0, 0}, {2, 0}}));
        const std::vector<std::pair<std::string, std::string>> s2bStages = {
            {"1. Pad", "[2,2,6,1]"},
            {"2. Reshape", "[2,1,2,3,2,1]"},
            {"3. Permute", "[2,2,2,1,3,1]"},
            {"4. Reshape", "[8,1,3,1]"}};
        for (const auto& [title, shape] : s2bStages) {
            const Step* s = titled(s2b, title);
            QVERIFY2(s, title.c_str());
            QVERIFY2(s->detail.find(shape) != std::string::npos, s->detail.c_str());
        }
        QCOMPARE(titled(s2b, "1. Pad")->inputDims, (std::vector<int>{1, 2}));

        SS_RUN(b2s, "batch_to_space_nd", {{iota({8, 1, 3, 1})}}, bts({2, 2}, {{0, 0}, {2, 0}}));
        const std::vector<std::pair<std::string, std::string>> b2sStages = {
            {"1. Reshape", "[2,2,2,1,3,1]"},
            {"2. Permute", "[2,1,2,3,2,1]"},
            {"3. Reshape", "[2,2,6,1]"},
            {"4. Crop", "[2,2,4,1]"}};
        for (const auto& [title, shape] : b2sStages) {
            const Step* s = titled(b2s, title);
            QVERIFY2(s, title.c_str());
            QVERIFY2(s->detail.find(shape) != std::string::npos, s->detail.c_str());
        }

        SS_RUN(same, "extract_image_patches", {{iota({1, 3, 3, 1})}},
               patches({1, 2, 2, 1}, {1, 2, 2, 1}, {1, 2, 1, 1}, "SAME"));
        QVERIFY(titled(same, "Effective kernel size")->detail.find("= 3,") != std::string::npos);
        QVERIFY(titled(same, "Output rows")->detail.find("split 1 before and 1 after") !=
                std::string::npos);
        QVERIFY(titled(same, "Output columns")->detail.find("split 0 before and 1 after") !=
                std::string::npos);
        SS_RUN(quirk, "extract_image_patches", {{iota({1, 1, 1, 1})}},
               patches({1, 2, 2, 1}, {1, 2, 2, 1}, {1, 3, 3, 1}, "VALID"));
        QVERIFY(titled(quirk, "Output rows")->detail.find("quirk") != std::string::npos);

        SS_RUN(folded, "space_to_batch_nd", {{iota({1, 2, 2})}}, stb({1, 1}, kNoPad));
        QVERIFY(titled(folded, "Nothing to move"));
        SS_RUN(req, "required_space_to_batch_paddings", {},
               {{"input_shape", Attr::ints({5, 7})}, {"block_shape", Attr::ints({2, 3})}});
        QVERIFY(titled(req, "Dimension 0") && titled(req, "Dimension 1"));
    }

    // Every op against its textbook NumPy definition, on random shapes (zero sizes included).
    void numpyDifferential()
    {
        Generator gen;
        std::vector<Random> all;
        for (int i = 0; i < 300; ++i) {
            all.push_back(gen.spaceToBatch());
            all.push_back(gen.batchToSpace());
            all.push_back(gen.extractPatches());
            all.push_back(gen.depth(true));
            all.push_back(gen.depth(false));
            all.push_back(gen.requiredPaddings());
        }
        QByteArray requests;
        for (const Random& r : all)
            requests += QJsonDocument(r.request).toJson(QJsonDocument::Compact) + '\n';
        const QList<QByteArray> answers = runNumpy(oracleScript(), requests).trimmed().split('\n');
        QCOMPARE(answers.size(), qsizetype(all.size()));
        int errors = 0;
        for (std::size_t i = 0; i < all.size(); ++i) {
            const Random& r = all[i];
            const QJsonObject expect = QJsonDocument::fromJson(answers[qsizetype(i)]).object();
            const QByteArray what = QJsonDocument(r.request).toJson(QJsonDocument::Compact);
            if (r.op == "required_space_to_batch_paddings") {
                SS_RUN(run, r.op, {}, r.attrs);
                QVERIFY2(values(run.outputs[0]) == jsonToInts(expect["paddings"].toArray()), what);
                QVERIFY2(values(run.outputs[1]) == jsonToInts(expect["crops"].toArray()), what);
                continue;
            }
            const Tensor input = iota(r.shape, 0, DType::Int64);
            if (expect.contains("error")) {
                ++errors;
                SS_EXPECT_ERROR(runOp(r.op, {{input}}, r.attrs), kInvalid, "");
                continue;
            }
            OpRun run;
            try {
                run = runOp(r.op, {{input}}, r.attrs);
            } catch (const OpError& e) {
                QFAIL((what + " failed: " + e.what()).constData());
            }
            QVERIFY2(run.outputs[0].shape() == Shape(jsonToInts(expect["shape"].toArray())), what);
            QVERIFY2(values(run.outputs[0]) == jsonToInts(expect["data"].toArray()), what);
        }
        // The generator aims at mostly valid cases, but the error paths must be exercised too.
        QVERIFY(errors > 50 && errors < 400);
    }

    // batch_to_space(space_to_batch(x)) == x when the crops are the paddings; the paddings come
    // from required_space_to_batch_paddings. Likewise depth_to_space undoes space_to_depth.
    void roundTrips()
    {
        Generator gen;
        for (int i = 0; i < 200; ++i) {
            const std::int64_t m = gen.pick(1, 3);
            Shape shape = {gen.pick(1, 3)};
            Ints blocks;
            std::vector<Ints> base;
            for (std::int64_t k = 0; k < m; ++k) {
                shape.push_back(gen.pick(1, 5));
                blocks.push_back(gen.pick(1, 3));
                base.push_back({gen.pick(0, 2), gen.pick(0, 2)});
            }
            shape.push_back(gen.pick(1, 2));
            SS_RUN(req, "required_space_to_batch_paddings", {},
                   {{"input_shape", Attr::ints(Ints(shape.begin() + 1, shape.end() - 1))},
                    {"block_shape", Attr::ints(blocks)},
                    {"base_paddings", matrix(base)}});
            std::vector<Ints> pads;
            const Ints flat = values(req.outputs[0]);
            for (std::int64_t k = 0; k < m; ++k)
                pads.push_back({flat[std::size_t(2 * k)], flat[std::size_t(2 * k + 1)]});
            const Tensor x = iota(shape, 7);
            SS_RUN(there, "space_to_batch_nd", {{x}}, stb(blocks, pads));
            SS_RUN(back, "batch_to_space_nd", {{there.outputs[0]}}, bts(blocks, pads));
            QVERIFY(back.outputs[0].identical(x));
        }
        for (int i = 0; i < 100; ++i) {
            const std::int64_t b = gen.pick(2, 4);
            const Tensor x =
                iota({gen.pick(0, 2), b * gen.pick(0, 3), b * gen.pick(0, 3), gen.pick(0, 3)});
            SS_RUN(there, "space_to_depth", {{x}}, block(b));
            SS_RUN(back, "depth_to_space", {{there.outputs[0]}}, block(b));
            QVERIFY(back.outputs[0].identical(x));
        }
    }

    void opDefinitions()
    {
        for (const char* name :
             {"extract_image_patches", "extract_patches", "space_to_batch_nd", "space_to_batch",
              "required_space_to_batch_paddings", "batch_to_space_nd", "batch_to_space",
              "space_to_depth", "depth_to_space"})
            QVERIFY2(findOp(name), name);
        QCOMPARE(def("extract_patches").name, std::string("extract_image_patches"));
        QCOMPARE(def("required_space_to_batch_paddings").inputs.size(), std::size_t(0));
    }

private:
    static const OpDef& def(const std::string& name) { return *findOp(name); }
};

QTEST_APPLESS_MAIN(TestSpaceOps)
#include "tst_space_ops.moc"
