// SPDX-License-Identifier: GPL-3.0-or-later
// Two slice programs, the same or not, decided from their plans: a TensorFlow subscript against
// the chains converters make of it (ONNX Slice + Squeeze + Unsqueeze, TFLite's rewritten masks).
#include "core/slice_diagnosis.h"
#include "op_runner.h"

#include <QTest>

#include <limits>

using namespace ss;
using namespace ss::testing;

namespace {

using Chain = std::vector<ChainStep>;

ChainStep step(const char* op, Attrs attrs)
{
    return {findOp(op), std::move(attrs)};
}

ChainStep subscript(const char* expr)
{
    return step("getitem", {{"expr", Attr(expr)}});
}

// ONNX Squeeze / Unsqueeze of one axis written as the strided_slice a converter emits.
ChainStep squeeze(int rank, int axis)
{
    const std::vector<std::int64_t> zeros(std::size_t(rank), 0);
    const std::int64_t all = ((std::int64_t(1) << rank) - 1) & ~(std::int64_t(1) << axis);
    return step("strided_slice", {{"begin", Attr::ints(zeros)},
                                  {"end", Attr::ints(zeros)},
                                  {"begin_mask", Attr(all)},
                                  {"end_mask", Attr(all)},
                                  {"shrink_axis_mask", Attr(std::int64_t(1) << axis)}});
}
ChainStep unsqueeze(int outRank, std::int64_t newAxisMask)
{
    const std::vector<std::int64_t> zeros(std::size_t(outRank), 0);
    const std::int64_t all = ((std::int64_t(1) << outRank) - 1) & ~newAxisMask;
    return step("strided_slice", {{"begin", Attr::ints(zeros)},
                                  {"end", Attr::ints(zeros)},
                                  {"begin_mask", Attr(all)},
                                  {"end_mask", Attr(all)},
                                  {"new_axis_mask", Attr(newAxisMask)}});
}

constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();

} // namespace

Q_DECLARE_METATYPE(Chain)

class TestSliceEquivalence : public QObject
{
    Q_OBJECT

private slots:
    void equivalence_data()
    {
        QTest::addColumn<Chain>("a");
        QTest::addColumn<Chain>("b");
        QTest::addColumn<QList<qint64>>("shape");
        QTest::addColumn<bool>("same");
        QTest::addColumn<QString>("explanation");

        // tensorflow-onnx #1849: x[..., None, None] on a rank-2 x is Unsqueeze axes [2, 3].
        QTest::newRow("tf-onnx 1849 unsqueeze [2, 3]")
            << Chain{subscript("x[..., None, None]")} << Chain{unsqueeze(4, 0b1100)}
            << QList<qint64>{2, 3} << true
            << "both read the same 6 elements in the same order, output shape (2, 3, 1, 1)";
        QTest::newRow("tf-onnx 1849 unsqueeze [1, 2]")
            << Chain{subscript("x[..., None, None]")} << Chain{unsqueeze(4, 0b0110)}
            << QList<qint64>{2, 3} << false
            << "the outputs differ in shape: A gives (2, 3, 1, 1), B gives (2, 1, 1, 3)";
        // A Python subscript against ONNX Slice + Squeeze + Unsqueeze.
        const Attrs slice{{"starts", Attr::ints({1, 2})},
                          {"ends", Attr::ints({2, 4})},
                          {"axes", Attr::ints({0, 1})}};
        QTest::newRow("slice squeeze unsqueeze")
            << Chain{subscript("x[1, 2:4, None]")}
            << Chain{step("onnx_slice", slice), squeeze(2, 0), unsqueeze(2, 0b10)}
            << QList<qint64>{3, 5} << true
            << "both read the same 2 elements in the same order, output shape (2, 1)";
        const Attrs sliceOff{{"starts", Attr::ints({1, 1})},
                             {"ends", Attr::ints({2, 3})},
                             {"axes", Attr::ints({0, 1})}};
        QTest::newRow("slice squeeze unsqueeze, starts off by one")
            << Chain{subscript("x[1, 2:4, None]")}
            << Chain{step("onnx_slice", sliceOff), squeeze(2, 0), unsqueeze(2, 0b10)}
            << QList<qint64>{3, 5} << false
            << "at output [0, 0] A reads x[1, 2] and B reads x[1, 1]";
        // tensorflow-onnx #810: ph[:, :, 9::-1] as a Slice with a negative step.
        QTest::newRow("tf-onnx 810 end INT64_MIN")
            << Chain{subscript("x[:, :, 9::-1]")}
            << Chain{step("onnx_slice", {{"starts", Attr::ints({9})},
                                         {"ends", Attr::ints({kInt64Min})},
                                         {"axes", Attr::ints({2})},
                                         {"steps", Attr::ints({-1})}})}
            << QList<qint64>{2, 3, 12} << true
            << "both read the same 60 elements in the same order, output shape (2, 3, 10)";
        QTest::newRow("tf-onnx 810 end -1")
            << Chain{subscript("x[:, :, 9::-1]")}
            << Chain{step("onnx_slice", {{"starts", Attr::ints({9})},
                                         {"ends", Attr::ints({-1})},
                                         {"axes", Attr::ints({2})},
                                         {"steps", Attr::ints({-1})}})}
            << QList<qint64>{2, 3, 12} << false
            << "the outputs differ in shape: A gives (2, 3, 10), B gives (2, 3, 0)";
        // tensorflow #42481's kind: x[..., :1, 2:] with the ellipsis rewritten into masks.
        QTest::newRow("tflite ellipsis rewritten right")
            << Chain{subscript("x[..., :1, 2:]")}
            << Chain{step("strided_slice", {{"begin", Attr::ints({0, 0, 2})},
                                            {"end", Attr::ints({0, 1, 0})},
                                            {"begin_mask", Attr(0b011)},
                                            {"end_mask", Attr(0b101)}})}
            << QList<qint64>{3, 6, 6} << true
            << "both read the same 12 elements in the same order, output shape (3, 1, 4)";
        QTest::newRow("tflite ellipsis dropped")
            << Chain{subscript("x[..., :1, 2:]")}
            << Chain{step("strided_slice", {{"begin", Attr::ints({0, 2})},
                                            {"end", Attr::ints({1, 0})},
                                            {"begin_mask", Attr(0b01)},
                                            {"end_mask", Attr(0b10)}})}
            << QList<qint64>{3, 6, 6} << false
            << "the outputs differ in shape: A gives (3, 1, 4), B gives (1, 4, 6)";
        // Same shape, same elements, another order: a transpose is not a no-op.
        QTest::newRow("square transpose")
            << Chain{subscript("x[:, ::-1]")}
            << Chain{step("reverse", {{"axis", Attr::ints({1})}}),
                     step("transpose", {{"perm", Attr::ints({1, 0})}})}
            << QList<qint64>{3, 3} << false
            << "at output [0, 1] A reads x[0, 1] and B reads x[1, 2]";
        QTest::newRow("reverse is a negative stride")
            << Chain{subscript("x[:, ::-1]")} << Chain{step("reverse", {{"axis", Attr::ints({1})}})}
            << QList<qint64>{3, 4} << true
            << "both read the same 12 elements in the same order, output shape (3, 4)";
        // Padding reads constants: equal only where both pad alike.
        QTest::newRow("pad against slice")
            << Chain{step("pad", {{"paddings", Attr(Attr::List{Attr::ints({1, 0})})}})}
            << Chain{subscript("x[:]")} << QList<qint64>{4} << false
            << "the outputs differ in shape: A gives (5,), B gives (4,)";
    }
    void equivalence()
    {
        QFETCH(Chain, a);
        QFETCH(Chain, b);
        QFETCH(QList<qint64>, shape);
        QFETCH(bool, same);
        QFETCH(QString, explanation);
        const Shape s(shape.begin(), shape.end());
        const Limits limits = Limits::machineDefault();
        const ChainPlan pa = planChain(a, s, DType::Int32, limits, testExecutor());
        const ChainPlan pb = planChain(b, s, DType::Int32, limits, testExecutor());
        const Equivalence e = compareChains(pa, pb);
        QCOMPARE(QString::fromStdString(e.explanation), explanation);
        QCOMPARE(e.same, same);
        // Symmetric, and every program equals itself.
        QCOMPARE(compareChains(pb, pa).same, same);
        QVERIFY(compareChains(pa, pa).same);
        // The composed sources are what running the chain step by step gives (arange input).
        Tensor value = iota(s);
        for (const ChainStep& st : a)
            value = runOp(st.op->name, {{value}}, st.attrs).outputs[0];
        QCOMPARE(value.shape(), pa.outputShape);
        for (std::int64_t i = 0; i < value.size(); ++i)
            QCOMPARE(pa.sources[std::size_t(i)] == kNoSource ? std::int64_t(-1)
                                                             : pa.sources[std::size_t(i)],
                     pa.sources[std::size_t(i)] == kNoSource ? std::int64_t(-1) : value.intAt(i));
    }

    void refusedSteps()
    {
        const Limits limits = Limits::machineDefault();
        SS_EXPECT_ERROR(planChain({}, {3}, DType::Int32, limits, testExecutor()),
                        ErrorCode::BadRequest, "a chain needs at least one step");
        SS_EXPECT_ERROR(
            planChain({step("gather", {})}, {3}, DType::Int32, limits, testExecutor()),
            ErrorCode::BadRequest,
            "step 1: gather takes more than one input tensor; a chain's steps take one");
        SS_EXPECT_ERROR(planChain({subscript("x[1:]"), subscript("x[5]")}, {3}, DType::Int32,
                                  limits, testExecutor()),
                        ErrorCode::OutOfRange,
                        "step 2: slice index 5 of dimension 0 out of bounds.");
    }
};

QTEST_APPLESS_MAIN(TestSliceEquivalence)
#include "tst_slice_equivalence.moc"
