// SPDX-License-Identifier: GPL-3.0-or-later
// strided_slice and getitem: every worked example and error of TensorFlow's validation, and the
// seed pages' examples with their true results.
#include "core/slice_expr.h"
#include "op_runner.h"

#include <QTest>

#include <optional>

using namespace ss;
using namespace ss::testing;

namespace {

struct Case
{
    const char* name;
    Shape shape;                     // input: iota(shape), or the values below
    std::vector<std::int64_t> input; // explicit input values (empty: iota)
    Attrs attrs;                     // strided_slice attributes, or {"expr": ...} for getitem
    Shape expectShape;
    std::vector<std::int64_t> expect;          // expected values
    ErrorCode errorCode = ErrorCode::Internal; // Internal: no error expected
    std::string errorMessage;
};

Attrs raw(std::vector<std::int64_t> b, std::vector<std::int64_t> e, std::vector<std::int64_t> s,
          std::int64_t bm = 0, std::int64_t em = 0, std::int64_t el = 0, std::int64_t na = 0,
          std::int64_t sh = 0)
{
    return {{"begin", Attr::ints(b)}, {"end", Attr::ints(e)},  {"strides", Attr::ints(s)},
            {"begin_mask", bm},       {"end_mask", em},        {"ellipsis_mask", el},
            {"new_axis_mask", na},    {"shrink_axis_mask", sh}};
}
// The same spec read with TFLite's StridedSliceOptions.offset.
Attrs offset(Attrs attrs, bool on = true)
{
    attrs["offset"] = Attr(on);
    return attrs;
}
Attrs expr(const char* text)
{
    return {{"expr", Attr(text)}};
}
Attrs exprAttrs(const std::string& text)
{
    return {{"expr", Attr("x[" + text + "]")}};
}
// `item` n times, joined by `separator`.
std::string repeated(const std::string& item, int n, const std::string& separator = ", ")
{
    std::string out;
    for (int k = 0; k < n; ++k)
        out += (k ? separator : "") + item;
    return out;
}

constexpr std::int64_t kTwo31 = std::int64_t(1) << 31;
constexpr std::int64_t kTwo32 = std::int64_t(1) << 32;

const std::vector<std::int64_t> kSeedT = {1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6};

// One case per row (or two) reads better than clang-format's one field per line.
// clang-format off
const std::vector<Case>& cases()
{
    static const std::vector<Case> all = {
        // Masks and clamping, on iota(3,4) unless stated
        {"S1 x[1:, ::-2]", {3, 4}, {}, raw({1, 0}, {0, 0}, {1, -2}, 2, 3), {2, 2}, {7, 5, 11, 9}},
        {"S2 x[-1, None, 1:3]", {3, 4}, {}, raw({-1, 0, 1}, {0, 0, 3}, {1, 1, 1}, 0, 0, 0, 2, 1),
         {1, 2}, {9, 10}},
        {"S3 new axis wins over shrink", {3, 4}, {}, raw({1}, {2}, {1}, 0, 0, 0, 1, 1), {1, 3, 4},
         {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
        {"S4 begin mask ignored under shrink", {3}, {10, 11, 12}, raw({2}, {0}, {1}, 1, 0, 0, 0, 1),
         {}, {12}},
        {"S5 stride 3 accepted under shrink", {3}, {10, 11, 12}, raw({1}, {0}, {3}, 0, 0, 0, 0, 1),
         {}, {11}},
        {"S6 negative stride under shrink", {3}, {10, 11, 12}, raw({1}, {0}, {-1}, 0, 0, 0, 0, 1),
         {}, {}, ErrorCode::InvalidArgument, "only stride 1 allowed on non-range indexing."},
        {"S7 x[-4] on 3 elements", {3}, {10, 11, 12}, raw({-4}, {-3}, {1}, 0, 0, 0, 0, 1), {}, {},
         ErrorCode::OutOfRange, "slice index -1 of dimension 0 out of bounds."},
        {"S8 end mask bit past the spec", {3}, {10, 11, 12}, raw({0}, {2}, {1}, 0, 2), {2},
         {10, 11}},
        {"S9 multiple ellipses past the spec", {3}, {10, 11, 12}, raw({1}, {2}, {1}, 0, 0, 12), {},
         {}, ErrorCode::InvalidArgument, "Multiple ellipses in slice spec not allowed"},
        {"S10 unequal begin/end/strides", {3, 4}, {}, raw({1, 0}, {2}, {1}), {}, {},
         ErrorCode::InvalidArgument,
         "Expected begin, end, and strides to be 1D equal size tensors, but got shapes [2], [1], "
         "and [1] instead."},
        {"S11 x[..., None, 0]", {2, 3, 4}, {}, raw({0, 0, 0}, {0, 0, 1}, {1, 1, 1}, 0, 0, 1, 2, 4),
         {2, 3, 1}, {0, 4, 8, 12, 16, 20}},
        {"S12 x[100:-100:-2]", {5}, {}, raw({100}, {-100}, {-2}), {3}, {4, 2, 0}},
        {"stride zero", {3, 4}, {}, raw({0, 0}, {1, 1}, {1, 0}), {}, {}, ErrorCode::InvalidArgument,
         "strides[1] must be non-zero"},
        {"too many specs", {3}, {}, raw({0, 0}, {1, 1}, {1, 1}), {}, {}, ErrorCode::InvalidArgument,
         "Index out of range using input dim 1; input has only 1 dims"},
        {"x[3:1] is empty", {5}, {}, expr("x[3:1]"), {0}, {}},
        {"x[0] on a zero-size dim", {0}, {}, expr("x[0]"), {}, {}, ErrorCode::OutOfRange,
         "slice index 0 of dimension 0 out of bounds."},
        {"x[::-1] on a zero-size dim", {0, 2}, {}, expr("x[::-1]"), {0, 2}, {}},
        {"x[None, None] on a scalar", {}, {7}, expr("x[None, None]"), {1, 1}, {7}},
        {"x[0] on a scalar", {}, {7}, expr("x[0]"), {}, {}, ErrorCode::InvalidArgument,
         "Index out of range using input dim 0; input has only 0 dims"},
        {"INT64 extremes, full range", {5}, {},
         raw({std::numeric_limits<std::int64_t>::min()}, {std::numeric_limits<std::int64_t>::max()}, {1}),
         {5}, {0, 1, 2, 3, 4}},
        {"stride INT64_MIN with both masks", {5}, {},
         raw({0}, {0}, {std::numeric_limits<std::int64_t>::min()}, 1, 1), {1}, {4}},
        {"shrink at INT64_MAX", {5}, {},
         raw({std::numeric_limits<std::int64_t>::max()}, {0}, {1}, 0, 0, 0, 0, 1), {}, {},
         ErrorCode::OutOfRange, "slice index 9223372036854775807 of dimension 0 out of bounds."},
        {"foo[:, ...] is the identity (erratum 1)", {3, 4}, {}, expr("foo[:, ...]"), {3, 4},
         {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
        {"foo[None, ...] gives (1, 3, 4)", {3, 4}, {}, expr("foo[None, ...]"), {1, 3, 4},
         {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
        {"foo[-2::-1] is [3,2,1] (erratum 2)", {4}, {1, 2, 3, 4}, expr("foo[-2::-1]"), {3},
         {3, 2, 1}},
        {"foo[::-1] reverses 8 (erratum 7)", {8}, {}, expr("foo[::-1]"), {8}, {7, 6, 5, 4, 3, 2, 1, 0}},
        {"foo[::1] is the identity", {8}, {}, expr("foo[::1]"), {8}, {0, 1, 2, 3, 4, 5, 6, 7}},
        {"foo[2, :] on (5,6)", {5, 6}, {}, expr("foo[2, :]"), {6}, {12, 13, 14, 15, 16, 17}},
        {"foo[3:5,4] shrinks (erratum 11)", {10, 3, 3, 10}, {}, expr("foo[3:5, 4]"), {}, {},
         ErrorCode::OutOfRange, "slice index 4 of dimension 1 out of bounds."},
        {"foo[:4, None, :2]", {5, 6}, {}, expr("foo[:4, tf.newaxis, :2]"), {4, 1, 2},
         {0, 1, 6, 7, 12, 13, 18, 19}},
        // tf.strided_slice page (001) on the 3x2x3 tensor, true results (erratum 8)
        {"001 first", {3, 2, 3}, kSeedT, raw({1, 0, 0}, {2, 1, 3}, {1, 1, 1}), {1, 1, 3}, {3, 3, 3}},
        {"001 second", {3, 2, 3}, kSeedT, raw({1, 0, 0}, {2, 2, 3}, {1, 1, 1}), {1, 2, 3},
         {3, 3, 3, 4, 4, 4}},
        {"001 third as printed", {3, 2, 3}, kSeedT, raw({1, 1, 0}, {2, 3, 3}, {1, 1, 1}), {1, 1, 3},
         {4, 4, 4}},
        {"001 third as intended", {3, 2, 3}, kSeedT, raw({1, -1, 0}, {2, -3, 3}, {1, -1, 1}),
         {1, 2, 3}, {4, 4, 4, 3, 3, 3}},
        {"004 third is empty (erratum 10)", {3, 2, 3}, kSeedT, raw({1, 1, 0}, {2, -1, 3}, {1, -1, 1}),
         {1, 0, 3}, {}},
        {"001 foo[5:,:,:3] on 7x8x9", {7, 8, 9}, {}, expr("foo[5:,:,:3]"), {2, 8, 3}, {}},
        // The kernel reads the masks as int32, before any other check.
        {"begin_mask 2^31 is out of int32", {3}, {}, raw({0}, {2}, {1}, kTwo31), {}, {},
         ErrorCode::InvalidArgument,
         "Attr begin_mask has value 2147483648 out of range for an int32"},
        {"shrink_axis_mask below int32", {3}, {}, raw({0}, {1}, {1}, 0, 0, 0, 0, -kTwo31 - 1), {},
         {}, ErrorCode::InvalidArgument,
         "Attr shrink_axis_mask has value -2147483649 out of range for an int32"},
        {"end_mask reported before ellipsis_mask", {3}, {}, raw({0}, {2}, {1}, 0, kTwo32, kTwo32),
         {}, {}, ErrorCode::InvalidArgument,
         "Attr end_mask has value 4294967296 out of range for an int32"},
        {"masks before the begin/end shapes", {3}, {}, raw({0, 1}, {2}, {1}, 0, 0, 0, kTwo31), {},
         {}, ErrorCode::InvalidArgument,
         "Attr new_axis_mask has value 2147483648 out of range for an int32"},
        {"begin_mask -2^31 (bit 31, past the spec) is ignored", {3}, {},
         raw({0}, {2}, {1}, -kTwo31), {2}, {0, 1}},
        {"getitem entry 31 sets begin_mask bit 31", {2}, {},
         exprAttrs(repeated("0:1", 31) + ", :"), {}, {}, ErrorCode::InvalidArgument,
         "Attr begin_mask has value 2147483648 out of range for an int32"},
        {"getitem 32 Nones: new_axis_mask 2^32-1", {2}, {}, exprAttrs(repeated("None", 32)), {},
         {}, ErrorCode::InvalidArgument,
         "Attr new_axis_mask has value 4294967295 out of range for an int32"},
        {"getitem ... at entry 32", {2}, {}, exprAttrs(repeated("0:1", 32) + ", ..."), {}, {},
         ErrorCode::InvalidArgument,
         "Attr ellipsis_mask has value 4294967296 out of range for an int32"},
        {"getitem 70 indices: Python's unbounded mask", {2}, {}, exprAttrs(repeated("0", 70)), {},
         {}, ErrorCode::InvalidArgument,
         "Attr shrink_axis_mask has value 1180591620717411303423 out of range for an int32"},
        {"getitem 32 full slices set no mask: the shape check", {2}, {},
         exprAttrs(repeated("0:1", 32)), {}, {}, ErrorCode::InvalidArgument,
         "Expected begin, end, and strides to be 1D equal size tensors, but got shapes [32], [32], "
         "and [32] instead."},
        {"getitem 31 Nones make a rank-31 result", {}, {7}, exprAttrs(repeated("None", 31)),
         Shape(31, 1), {7}},
        // Rank: TensorFlow has no cap of 8 on tensors, only on StridedSlice's general kernel.
        {"issue 11: rank-9 result from a rank-6 input", {3, 2, 2, 3, 0, 6}, {},
         exprAttrs("None, None, -1:, None, :-1, :, 0:-5:-1"), {1, 1, 1, 1, 1, 2, 1, 0, 6}, {}},
        {"rank 9: identity fast path", {1, 1, 1, 1, 1, 1, 1, 2, 3}, {}, exprAttrs("..."),
         {1, 1, 1, 1, 1, 1, 1, 2, 3}, {0, 1, 2, 3, 4, 5}},
        {"rank 9: dimension-0 fast path, 32-byte rows", {2, 1, 1, 1, 1, 1, 1, 1, 8}, {},
         exprAttrs("1:"), {1, 1, 1, 1, 1, 1, 1, 1, 8}, {8, 9, 10, 11, 12, 13, 14, 15}},
        {"rank 9: dimension-0 slice of unaligned rows", {2, 1, 1, 1, 1, 1, 1, 1, 3}, {},
         exprAttrs("1:"), {}, {}, ErrorCode::Unimplemented, "Unhandled input dimensions 9"},
        {"rank 9: index on unaligned rows", {2, 1, 1, 1, 1, 1, 1, 1, 3}, {}, exprAttrs("0"), {},
         {}, ErrorCode::Unimplemented, "Unhandled input dimensions 9"},
        {"rank 9: general kernel", {1, 1, 1, 1, 1, 1, 1, 2, 3}, {}, exprAttrs("..., ::-1"), {},
         {}, ErrorCode::Unimplemented, "Unhandled input dimensions 9"},
        {"rank 9: empty slice needs no kernel", {1, 1, 1, 1, 1, 1, 1, 2, 3}, {},
         exprAttrs("..., 5:"), {1, 1, 1, 1, 1, 1, 1, 2, 0}, {}},
        {"rank 8: general kernel", {1, 1, 1, 1, 1, 1, 2, 3}, {}, exprAttrs("..., ::-1"),
         {1, 1, 1, 1, 1, 1, 2, 3}, {2, 1, 0, 5, 4, 3}},
        // TFLite's offset (end = begin + end, the begin as the kernel settles it); the same
        // files run in LiteRT in tests/model.
        {"offset: end 2 from begin 1", {5}, {}, offset(raw({1}, {2}, {1})), {2}, {1, 2}},
        {"offset false is TensorFlow's reading", {5}, {}, offset(raw({1}, {2}, {1}), false), {1},
         {1}},
        {"offset: begin -3 wraps to 2 first", {5}, {}, offset(raw({-3}, {2}, {1})), {2}, {2, 3}},
        {"offset: begin_mask makes begin 0", {5}, {}, offset(raw({3}, {2}, {1}, 1)), {2}, {0, 1}},
        {"offset: end_mask still wins", {5}, {}, offset(raw({1}, {2}, {1}, 0, 1)), {4},
         {1, 2, 3, 4}},
        {"offset: negative stride", {5}, {}, offset(raw({4}, {-2}, {-1})), {2}, {4, 3}},
        {"offset: negative stride, begin_mask", {5}, {}, offset(raw({0}, {-3}, {-1}, 1)), {3},
         {4, 3, 2}},
        {"offset: a negative sum counts from the end", {5}, {}, offset(raw({3}, {-4}, {1})), {1},
         {3}},
        {"offset: shrink ignores end", {5}, {}, offset(raw({2}, {100}, {1}, 0, 0, 0, 0, 1)), {},
         {2}},
        {"offset: begin clamped before the sum", {5}, {}, offset(raw({-9}, {2}, {1})), {2},
         {0, 1}},
        {"offset: 32-bit sum wraps", {5}, {}, offset(raw({1}, {2147483647}, {1})), {0}, {}},
        {"offset: two dimensions", {3, 4}, {}, offset(raw({1, 1}, {2, 2}, {1, 1})), {2, 2},
         {5, 6, 9, 10}},
        {"offset: with an ellipsis", {2, 3, 4}, {}, offset(raw({0, 2}, {0, 2}, {1, 1}, 0, 0, 1)),
         {2, 3, 2}, {2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22, 23}},
    };
    return all;
}
// clang-format on

} // namespace

class TestStridedSlice : public QObject
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
        const Tensor input = c.input.empty() ? iota(c.shape) : i32(c.shape, c.input);
        const char* op = c.attrs.count("expr") ? "getitem" : "strided_slice";
        if (c.errorCode != ErrorCode::Internal) {
            SS_EXPECT_ERROR(runOp(op, {{input}}, c.attrs), c.errorCode, c.errorMessage);
            return;
        }
        const OpRun run = runOp(op, {{input}}, c.attrs);
        QCOMPARE(run.outputs.size(), std::size_t(1));
        QCOMPARE(shapeString(run.outputs[0].shape()), shapeString(c.expectShape));
        if (!c.expect.empty() || numElements(c.expectShape) == 0)
            QCOMPARE(values(run.outputs[0]), c.expect);
    }

    // A plan without words (OpCall::explains() off, as a protocol request without `trace`
    // asks): no steps and no notes, and everything else as with them: the same decode, the
    // same values, the same errors. Every example, and with TFLite's offset.
    void examplesWithoutWords_data() { examples_data(); }

    void examplesWithoutWords()
    {
        QFETCH(int, index);
        const Case& c = cases()[std::size_t(index)];
        const Tensor input = c.input.empty() ? iota(c.shape) : i32(c.shape, c.input);
        std::vector<Attrs> variants{c.attrs};
        if (!c.attrs.count("expr")) variants.push_back(offset(c.attrs));
        for (const Attrs& attrs : variants) {
            const char* op = attrs.count("expr") ? "getitem" : "strided_slice";
            std::string errors[2];
            std::optional<OpPlan> plans[2];
            for (const bool explain : {true, false}) {
                OpCall call(*findOp(op), {{input}}, attrs, Limits::machineDefault());
                call.setExplains(explain);
                try {
                    plans[explain] = call.def().plan(call);
                } catch (const OpError& e) {
                    errors[explain] = std::string(errorCodeName(e.code())) + ": " + e.what();
                }
            }
            QCOMPARE(errors[false], errors[true]);
            QCOMPARE(plans[false].has_value(), plans[true].has_value());
            if (!plans[true]) continue;
            const OpPlan& bare = *plans[false];
            const OpPlan& full = *plans[true];
            QVERIFY(!full.steps.empty());
            QCOMPARE(bare.steps.size(), std::size_t(0));
            const StridedSliceDecode& b = *bare.decode;
            const StridedSliceDecode& f = *full.decode;
            QVERIFY(b.sparse == f.sparse);
            QCOMPARE(b.dense.begin, f.dense.begin);
            QCOMPARE(b.dense.end, f.dense.end);
            QCOMPARE(b.dense.strides, f.dense.strides);
            QCOMPARE(b.dense.beginMask, f.dense.beginMask);
            QCOMPARE(b.dense.endMask, f.dense.endMask);
            QCOMPARE(b.dense.shrinkAxisMask, f.dense.shrinkAxisMask);
            QCOMPARE(b.dims.size(), f.dims.size());
            for (std::size_t k = 0; k < b.dims.size(); ++k) {
                const DimDecode& x = b.dims[k];
                const DimDecode& y = f.dims[k];
                QCOMPARE(x.notes.size(), std::size_t(0));
                QCOMPARE(
                    (std::vector<std::int64_t>{x.dim, x.size, x.begin, x.end, x.stride, x.length,
                                               x.shrink, x.specEntry, x.fromEllipsis}),
                    (std::vector<std::int64_t>{y.dim, y.size, y.begin, y.end, y.stride, y.length,
                                               y.shrink, y.specEntry, y.fromEllipsis}));
            }
            QCOMPARE(b.processingShape, f.processingShape);
            QCOMPARE(b.finalShape, f.finalShape);
            QCOMPARE(b.finalDims, f.finalDims);
            QCOMPARE((std::vector<bool>{b.isIdentity, b.isSimpleSlice, b.sliceDim0}),
                     (std::vector<bool>{f.isIdentity, f.isSimpleSlice, f.sliceDim0}));
            QCOMPARE(values(executePlan(bare, {input}, testExecutor()).at(0)),
                     values(executePlan(full, {input}, testExecutor()).at(0)));
        }
    }

    // S13, the seed walk-through: encoding, every stage and the final shape.
    void seedWalkThrough()
    {
        const OpRun run =
            runOp("getitem", {{iota({5, 5, 5, 5, 5, 5})}}, expr("x[1, 2:4, None, ..., :-3:-1, :]"));
        const StridedSliceDecode& d = *run.plan.decode;
        QCOMPARE(d.sparse.begin, (std::vector<std::int64_t>{1, 2, 0, 0, 0, 0}));
        QCOMPARE(d.sparse.end, (std::vector<std::int64_t>{2, 4, 0, 0, -3, 0}));
        QCOMPARE(d.sparse.strides, (std::vector<std::int64_t>{1, 1, 1, 1, -1, 1}));
        QCOMPARE(d.sparse.beginMask, 48);
        QCOMPARE(d.sparse.endMask, 32);
        QCOMPARE(d.sparse.ellipsisMask, 8);
        QCOMPARE(d.sparse.newAxisMask, 4);
        QCOMPARE(d.sparse.shrinkAxisMask, 1);
        QCOMPARE(d.finalShape, (Shape{2, 1, 5, 5, 2, 5}));
        QCOMPARE(d.processingShape, (Shape{1, 2, 5, 5, 2, 5}));
        QCOMPARE(d.dims[4].begin, 4);
        QCOMPARE(d.dims[4].end, 2);
        QCOMPARE(d.dims[4].stride, -1);
        QCOMPARE(d.dims[0].shrink, true);
        QCOMPARE(d.dense.beginMask, 60);
        QCOMPARE(d.dense.endMask, 44);
        QVERIFY(!d.isIdentity);
        QCOMPARE(d.finalDims, (std::vector<int>{1, -3, 2, 3, 4, 5}));
        // output[0,0,0,0,0,0] = input[1,2,0,0,4,0]
        QCOMPARE(run.outputs[0].intAt(0), 1 * 3125 + 2 * 625 + 4 * 5);
        QCOMPARE(sourceIndex(run.sources[0][0]), 1 * 3125 + 2 * 625 + 4 * 5);
        QStringList titles;
        for (const Step& s : run.plan.steps)
            titles << QString::fromStdString(s.title);
        QVERIFY(titles.contains("Sparse to dense"));
        QVERIFY(titles.contains("Dimension 4"));
        QVERIFY(titles.contains("Final shape"));
    }

    void maskBitsPastTheEntriesStayVisible()
    {
        // begin_mask 16 on a 2-entry spec: the step shows bit 4 rather than cutting it to "0b00".
        const OpRun run = runOp("strided_slice", {{iota({3, 4})}}, raw({0, 0}, {2, 2}, {1, 1}, 16));
        const auto read = std::find_if(run.plan.steps.begin(), run.plan.steps.end(),
                                       [](const Step& s) { return s.title == "Read the spec"; });
        QVERIFY(read != run.plan.steps.end());
        QVERIFY2(read->detail.find("begin_mask 16 (0b10000)") != std::string::npos,
                 read->detail.c_str());
        QCOMPARE(maskBinary(5, 2), std::string("0b101"));
        QCOMPARE(maskBinary(1, 4), std::string("0b0001"));
        QCOMPARE(maskBinary(-1, 2), std::string("0b" + std::string(32, '1')));
    }

    void flags()
    {
        // x[0] on [1,3] rewrites to begin 0, end 1 = d: an identity (ValidateStridedSliceOp's identity check).
        const OpRun run = runOp("getitem", {{iota({1, 3})}}, expr("x[0]"));
        QVERIFY(run.plan.decode->isIdentity);
        QVERIFY(run.plan.decode->sliceDim0);
        const OpRun rev = runOp("getitem", {{iota({4, 3})}}, expr("x[1:3]"));
        QVERIFY(!rev.plan.decode->isIdentity);
        QVERIFY(rev.plan.decode->sliceDim0);
        QVERIFY(rev.plan.decode->isSimpleSlice);
        const OpRun scalar = runOp("getitem", {{iota({})}}, expr("x[...]"));
        QVERIFY(scalar.plan.decode->isIdentity);
    }

    void notesExplainChanges()
    {
        const OpRun run = runOp("strided_slice", {{iota({5})}}, raw({100}, {-100}, {-2}));
        const DimDecode& dim = run.plan.decode->dims[0];
        QCOMPARE(dim.begin, 4);
        QCOMPARE(dim.end, -1);
        QCOMPARE(dim.notes.size(), std::size_t(3)); // begin clamped, end wrapped, end clamped
    }

    // The offset step says what offset did to each end.
    void offsetStepExplainsTheSums()
    {
        const OpRun run = runOp("strided_slice", {{iota({3, 5})}},
                                offset(raw({1, -2}, {1, -4}, {1, 1}, 0, 0, 0, 0, 1)));
        QCOMPARE(shapeString(run.outputs[0].shape()), std::string("[1]"));
        QCOMPARE(values(run.outputs[0]), (std::vector<std::int64_t>{8}));
        const auto& steps = run.plan.steps;
        const auto it = std::find_if(steps.begin(), steps.end(),
                                     [](const Step& s) { return s.title.starts_with("Offset"); });
        QVERIFY(it != steps.end());
        QVERIFY2(it->detail.find("Entry 1: end = 3 + (-4) = -1.") != std::string::npos,
                 it->detail.c_str());
        QVERIFY(it->detail.find("Entry 0") == std::string::npos); // an index: end is not read
        QCOMPARE(run.plan.decode->dims[1].end, 4);
        const OpRun plain =
            runOp("strided_slice", {{iota({3, 5})}}, raw({1, -2}, {1, -4}, {1, 1}, 0, 0, 0, 0, 1));
        QVERIFY(std::none_of(plain.plan.steps.begin(), plain.plan.steps.end(),
                             [](const Step& s) { return s.title.starts_with("Offset"); }));
    }

    void offsetMustBeABoolean()
    {
        Attrs attrs = raw({1}, {2}, {1});
        attrs["offset"] = Attr(2);
        SS_EXPECT_ERROR(runOp("strided_slice", {{iota({5})}}, attrs), ErrorCode::BadRequest,
                        "attribute 'offset' must be true or false");
    }

    void stringsMove()
    {
        const OpRun run =
            runOp("getitem", {{strings({2, 2}, {"a0", "b0", "a1", "b1"})}}, expr("x[::-1, 1]"));
        QCOMPARE(run.outputs[0].data<std::string>()[0], std::string("b1"));
        QCOMPARE(run.outputs[0].data<std::string>()[1], std::string("b0"));
    }

    void assign_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QList<qint64>>("valueShape");
        QTest::addColumn<QList<qint64>>("value");
        QTest::addColumn<QList<qint64>>("expect");
        QTest::newRow("v[:, ::-2]")
            << "x[:, ::-2]" << QList<qint64>{2, 2} << QList<qint64>{30, 10, 60, 40}
            << QList<qint64>{10, 2, 30, 40, 5, 60};
        QTest::newRow("v[1, 1:2]") << "x[1, 1:2]" << QList<qint64>{1} << QList<qint64>{66}
                                   << QList<qint64>{1, 2, 3, 4, 66, 6};
        QTest::newRow("v[None, None, 0, 0:1]")
            << "x[None, None, 0, 0:1]" << QList<qint64>{1, 1, 1} << QList<qint64>{99}
            << QList<qint64>{99, 2, 3, 4, 5, 6};
        QTest::newRow("v[8:10, 0] empty, any value")
            << "x[8:10, 0]" << QList<qint64>{3} << QList<qint64>{7, 7, 7}
            << QList<qint64>{1, 2, 3, 4, 5, 6};
        // TensorFlow 2.21's StridedSliceAssignBCast: the value broadcasts to the slice.
        QTest::newRow("issue 11: [[40,50,60]] into x[:]")
            << "x[:]" << QList<qint64>{1, 3} << QList<qint64>{40, 50, 60}
            << QList<qint64>{40, 50, 60, 40, 50, 60};
        QTest::newRow("scalar into a row")
            << "x[0]" << QList<qint64>{} << QList<qint64>{9} << QList<qint64>{9, 9, 9, 4, 5, 6};
        QTest::newRow("vector into a reversed strided block")
            << "x[:, ::-2]" << QList<qint64>{2} << QList<qint64>{7, 8}
            << QList<qint64>{8, 2, 7, 8, 5, 7};
        QTest::newRow("column into a block")
            << "x[:, 1:]" << QList<qint64>{2, 1} << QList<qint64>{7, 8}
            << QList<qint64>{1, 7, 7, 4, 8, 8};
        QTest::newRow("extra leading 1s")
            << "x[1]" << QList<qint64>{1, 1, 3} << QList<qint64>{7, 8, 9}
            << QList<qint64>{1, 2, 3, 7, 8, 9};
        QTest::newRow("new axis and index")
            << "x[None, 0, ::2]" << QList<qint64>{2} << QList<qint64>{7, 8}
            << QList<qint64>{7, 2, 8, 4, 5, 6};
    }

    void assign()
    {
        QFETCH(QString, spec);
        QFETCH(QList<qint64>, valueShape);
        QFETCH(QList<qint64>, value);
        QFETCH(QList<qint64>, expect);
        const SparseSpec s = encodeAttrs(spec);
        const Tensor v = i32(Shape(valueShape.begin(), valueShape.end()),
                             std::vector<std::int64_t>(value.begin(), value.end()));
        const OpRun run = runOp("strided_slice_assign", {{i32({2, 3}, {1, 2, 3, 4, 5, 6})}, {v}},
                                attrsFromSparse(s));
        QCOMPARE(values(run.outputs[0]), std::vector<std::int64_t>(expect.begin(), expect.end()));
    }

    void assignErrors_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<int>("valueDtype");
        QTest::addColumn<QList<qint64>>("valueShape");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("cannot broadcast")
            << "x[0]" << int(DType::Int32) << QList<qint64>{2} << int(ErrorCode::InvalidArgument)
            << "Cannot broadcast input shape [2] into final shape [3]";
        QTest::newRow("the slice does not grow")
            << "x[0:1, 0]" << int(DType::Int32) << QList<qint64>{2}
            << int(ErrorCode::InvalidArgument)
            << "Cannot broadcast input shape [2] into final shape [1]";
        QTest::newRow("extra leading dimension other than 1")
            << "x[0]" << int(DType::Int32) << QList<qint64>{2, 3} << int(ErrorCode::InvalidArgument)
            << "Cannot broadcast input shape [2,3] into final shape [3]";
        QTest::newRow("dtypes differ")
            << "x[0]" << int(DType::Int64) << QList<qint64>{3} << int(ErrorCode::InvalidArgument)
            << "l-value dtype int32 does not match r-value dtype int64";
        QTest::newRow("dtype check before the decode")
            << "x[5]" << int(DType::Int64) << QList<qint64>{3} << int(ErrorCode::InvalidArgument)
            << "l-value dtype int32 does not match r-value dtype int64";
        QTest::newRow("DataTypeString names: double")
            << "x[0]" << int(DType::Float64) << QList<qint64>{3} << int(ErrorCode::InvalidArgument)
            << "l-value dtype int32 does not match r-value dtype double";
        QTest::newRow("shrink index outside the variable")
            << "x[5]" << int(DType::Int32) << QList<qint64>{3} << int(ErrorCode::OutOfRange)
            << "slice index 5 of dimension 0 out of bounds.";
    }

    void assignErrors()
    {
        QFETCH(QString, spec);
        QFETCH(int, valueDtype);
        QFETCH(QList<qint64>, valueShape);
        QFETCH(int, code);
        QFETCH(QString, message);
        const Tensor value =
            iota(Shape(valueShape.begin(), valueShape.end()), 0, DType(valueDtype));
        SS_EXPECT_ERROR(runOp("strided_slice_assign", {{i32({2, 3}, {1, 2, 3, 4, 5, 6})}, {value}},
                              attrsFromSparse(encodeAttrs(spec))),
                        ErrorCode(code), message.toStdString());
    }

    // A float32 variable and a float64 value, with begin/end shapes that disagree: the masks
    // come first, then the dtypes (in TensorFlow's DataTypeString names), then the shapes.
    void assignCheckOrder_data()
    {
        QTest::addColumn<qint64>("beginMask");
        QTest::addColumn<QString>("message");
        QTest::newRow("dtypes before the begin/end shapes")
            << qint64(0) << "l-value dtype float does not match r-value dtype double";
        QTest::newRow("masks before the dtypes")
            << qint64(kTwo31) << "Attr begin_mask has value 2147483648 out of range for an int32";
    }

    void assignCheckOrder()
    {
        QFETCH(qint64, beginMask);
        QFETCH(QString, message);
        SS_EXPECT_ERROR(runOp("strided_slice_assign",
                              {{iota({2}, 0, DType::Float32)}, {iota({1}, 0, DType::Float64)}},
                              raw({0, 1}, {1}, {1}, beginMask)),
                        ErrorCode::InvalidArgument, message.toStdString());
    }

    // to_expr and strided_slice_grad read the masks as the kernel does, first of all.
    void maskAttrsAreInt32_data()
    {
        QTest::addColumn<QString>("op");
        QTest::newRow("to_expr") << "to_expr";
        QTest::newRow("strided_slice_grad, before the shape check") << "strided_slice_grad";
    }

    void maskAttrsAreInt32()
    {
        QFETCH(QString, op);
        Attrs attrs = raw({0}, {1}, {1}, 0, 0, 0, 0, kTwo31);
        std::vector<std::vector<Tensor>> inputs;
        if (op == "strided_slice_grad") {
            attrs["shape"] = Attr(Attr::List{Attr::ints({3})}); // not 1-D, but checked later
            inputs = {{iota({})}};
        }
        SS_EXPECT_ERROR(runOp(op.toStdString(), inputs, attrs), ErrorCode::InvalidArgument,
                        "Attr shrink_axis_mask has value 2147483648 out of range for an int32");
    }

    // StridedSliceAssign handles 0 to 8 processing dimensions (no fast paths); the gradient's
    // kernel silently writes nothing past 8, where SliceScope gives the defined result.
    void rankLimits()
    {
        const Tensor ref = iota({1, 1, 1, 1, 1, 1, 1, 2, 3});
        SS_EXPECT_ERROR(runOp("strided_slice_assign", {{ref}, {iota({})}},
                              attrsFromSparse(encodeAttrs("x[..., 0]"))),
                        ErrorCode::Unimplemented, "Unhandled input dimensions 9");
        // An empty slice needs no kernel.
        const OpRun empty = runOp("strided_slice_assign", {{ref}, {iota({})}},
                                  attrsFromSparse(encodeAttrs("x[..., 5:]")));
        QCOMPARE(values(empty.outputs[0]), values(ref));
        const OpRun grad =
            runOp("strided_slice_grad", {{i32({1, 1, 1, 1, 1, 1, 1, 2}, {7, 8})}}, [] {
                Attrs a = attrsFromSparse(encodeAttrs("x[..., 0]"));
                a["shape"] = Attr::ints({1, 1, 1, 1, 1, 1, 1, 2, 3});
                return a;
            }());
        QCOMPARE(values(grad.outputs[0]), (std::vector<std::int64_t>{7, 0, 0, 8, 0, 0}));
        QVERIFY(grad.plan.steps.back().detail.find("returns its freshly allocated output") !=
                std::string::npos);
    }

    // Past 8 dimensions the trace says which fast path TensorFlow takes.
    void kernelPathStep()
    {
        const OpRun run = runOp("getitem", {{iota({2, 1, 1, 1, 1, 1, 1, 1, 8})}}, expr("x[1:]"));
        QCOMPARE(run.plan.steps.back().title, std::string("Read the elements"));
        const Step& path = run.plan.steps[run.plan.steps.size() - 2];
        QCOMPARE(path.title, std::string("Kernel path"));
        QVERIFY(path.detail.find("multiple of 32 bytes") != std::string::npos);
        const OpRun small = runOp("getitem", {{iota({2, 8})}}, expr("x[1:]"));
        for (const Step& s : small.plan.steps)
            QVERIFY(s.title != "Kernel path");
    }

    void grad()
    {
        Attrs a = attrsFromSparse(encodeAttrs("x[::-2]"));
        a["shape"] = Attr::ints({5});
        const OpRun run = runOp("strided_slice_grad", {{i32({3}, {1, 2, 3})}}, a);
        QCOMPARE(values(run.outputs[0]), (std::vector<std::int64_t>{3, 0, 2, 0, 1}));
        QCOMPARE(run.sources[0][1], kNoSource);
        Attrs b = attrsFromSparse(encodeAttrs("x[1, 1:]"));
        b["shape"] = Attr::ints({2, 3});
        const OpRun run2 = runOp("strided_slice_grad", {{i32({2}, {7, 8})}}, b);
        QCOMPARE(values(run2.outputs[0]), (std::vector<std::int64_t>{0, 0, 0, 0, 7, 8}));
        SS_EXPECT_ERROR(runOp("strided_slice_grad", {{i32({1, 2}, {7, 8})}}, b),
                        ErrorCode::InvalidArgument, "shape of dy was [1,2] instead of [2]");
        Attrs c = b;
        c["shape"] = Attr(Attr::List{Attr::ints({2, 3})});
        SS_EXPECT_ERROR(runOp("strided_slice_grad", {{i32({2}, {7, 8})}}, c),
                        ErrorCode::InvalidArgument, "shape must be 1-D, got shape.shape = [1,2]");
    }

private:
    static SparseSpec encodeAttrs(const QString& spec)
    {
        return encodeExpression(spec.toStdString()).sparse;
    }
};

QTEST_APPLESS_MAIN(TestStridedSlice)
#include "tst_strided_slice.moc"
