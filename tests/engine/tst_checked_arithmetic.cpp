// SPDX-License-Identifier: GPL-3.0-or-later
// Sizes and offsets that do not fit in int64 (issue 11, "No undefined behaviour"). Each input
// here once overflowed a signed multiply or add (UBSan: shape.cpp rowMajorStrides, concat,
// space_to_depth, depth_to_space, paddle_strided_slice) and in Release answered with nonsense
// such as "negative dimension: [0,-9223372036854775808]". Empty tensors may have huge other
// dimensions, so they are the usual way in. The same inputs are in tests/fuzz/corpus/request.
#include "core/checked.h"
#include "op_runner.h"

#include <QTest>

#include <limits>

using namespace ss;
using namespace ss::testing;

namespace {

constexpr std::int64_t kBig = std::int64_t(1) << 62;
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

Attr ints(const std::vector<std::int64_t>& v)
{
    return Attr::ints(v);
}

} // namespace

class TestCheckedArithmetic : public QObject
{
    Q_OBJECT

private slots:
    void helpers()
    {
        QCOMPARE(checkedMul(kBig, 2), std::nullopt);
        QCOMPARE(checkedMul(kBig, -2), std::optional<std::int64_t>(kMin));
        QCOMPARE(checkedAdd(kMax, 1), std::nullopt);
        QCOMPARE(checkedSub(kMin, 1), std::nullopt);
        QCOMPARE(checkedSub(0, kMin), std::nullopt);
        SS_EXPECT_ERROR(mulOrThrow(kBig, 4, "the size"), ErrorCode::ResourceExhausted,
                        "the size does not fit in a 64-bit integer (more than "
                        "9223372036854775807)");
        QCOMPARE(addOrThrow(kMax - 1, 1, "x"), kMax);
    }

    // Issue 25: as NumPy ("array is too big"), sizes that multiply past int64 are no shape even
    // with a 0 among them, wherever the 0 is; with sizes that fit, a 0 makes an empty tensor.
    void shapesOfEmptyTensors()
    {
        QCOMPARE(checkedNumElements({0, kBig, kBig}), std::nullopt);
        QCOMPARE(checkedNumElements({kBig, kBig, 0}), std::nullopt);
        QCOMPARE(checkedNumElements({std::int64_t(1) << 32, std::int64_t(1) << 32, 0}),
                 std::nullopt);
        QCOMPARE(checkedNumElements({0, kBig, 1}), std::optional<std::int64_t>(0));
        QCOMPARE(checkedNumElements({kBig, 0, 1}), std::optional<std::int64_t>(0));
        SS_EXPECT_ERROR(numElements({kBig, kBig, 0}), ErrorCode::ResourceExhausted,
                        "the element count of shape [4611686018427387904,4611686018427387904,0] "
                        "does not fit in a 64-bit integer (more than 9223372036854775807)");
        SS_EXPECT_ERROR(Tensor::zeros(DType::Int8, {0, kBig, kBig}), ErrorCode::ResourceExhausted,
                        "a tensor of shape [0,4611686018427387904,4611686018427387904] is too "
                        "big: its sizes multiply past 2^63 - 1 elements (a size of 0 does not "
                        "make it an empty array; NumPy refuses it too)");
        QCOMPARE(rowMajorStrides({0, kBig, 1}), (std::vector<std::int64_t>{kBig, 1, 1}));
        QCOMPARE(rowMajorStrides({kBig, 1, 0, 3}), (std::vector<std::int64_t>{0, 0, 3, 1}));
        QCOMPARE(rowMajorStrides({2, 3, 4}), (std::vector<std::int64_t>{12, 4, 1}));
        SS_EXPECT_ERROR(numElements({kBig, 4}), ErrorCode::ResourceExhausted,
                        "the element count of shape [4611686018427387904,4] does not fit in a "
                        "64-bit integer (more than 9223372036854775807)");
    }

    void emptyTensorOps_data()
    {
        QTest::addColumn<QString>("op");
        QTest::newRow("reverse") << "reverse";
        QTest::newRow("stack") << "stack";
        QTest::newRow("transpose") << "transpose";
        QTest::newRow("tile") << "tile";
        QTest::newRow("gather") << "gather";
        QTest::newRow("boolean_mask") << "boolean_mask";
        QTest::newRow("dynamic_partition") << "dynamic_partition";
        QTest::newRow("reverse_sequence") << "reverse_sequence";
    }

    // Issue 11's reproducer was reverse/stack of [0, 2^62, 2^62], which issue 25 refuses as too
    // big; empty tensors with sizes near the limit, [0, 2^61, 1] (stacked: [0, 2, 2^61, 1]),
    // still go through every op.
    void emptyTensorOps()
    {
        QFETCH(QString, op);
        const std::int64_t half = kBig / 2;
        const Tensor empty = Tensor::zeros(DType::Int8, {0, half, 1});
        OpRun run;
        if (op == "reverse")
            run = runOp("reverse", {{empty}}, {{"axis", ints({1})}});
        else if (op == "stack")
            run = runOp("stack", {{empty, empty}}, {{"axis", 1}});
        else if (op == "transpose")
            run = runOp("transpose", {{empty}}, {{"perm", ints({2, 0, 1})}});
        else if (op == "tile")
            run = runOp("tile", {{empty}}, {{"multiples", ints({5, 1, 1})}});
        else if (op == "gather")
            run = runOp("gather", {{empty}, {Tensor::zeros(DType::Int32, {0})}});
        else if (op == "boolean_mask")
            run = runOp("boolean_mask", {{empty}, {Tensor::zeros(DType::Bool, {0})}});
        else if (op == "dynamic_partition")
            run = runOp("dynamic_partition", {{empty}, {Tensor::zeros(DType::Int32, {0})}},
                        {{"num_partitions", 2}});
        else
            run = runOp(
                "reverse_sequence",
                {{Tensor::zeros(DType::Int8, {2, 0, half, 1})}, {Tensor::zeros(DType::Int32, {2})}},
                {{"seq_axis", 1}, {"batch_axis", 0}});
        QCOMPARE(run.outputs[0].size(), std::int64_t(0));
        for (std::int64_t d : run.outputs[0].shape())
            QVERIFY(d == 0 || d == half || d == 1 || d == 2);
    }

    void refusedSizes_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("message");
        QTest::newRow("concat") << 0
                                << "the output's dimension 0 (the sum of the inputs') does not "
                                   "fit in a 64-bit integer (more than 9223372036854775807)";
        // Since issue 25 an input whose output sizes would pass int64 is itself too big: its own
        // sizes (the 0 aside) multiply past int64. It is refused as it is made.
        QTest::newRow("space_to_depth")
            << 1
            << "a tensor of shape [0,2,2,4611686018427387904] is too big: its sizes multiply "
               "past 2^63 - 1 elements (a size of 0 does not make it an empty array; NumPy "
               "refuses it too)";
        QTest::newRow("depth_to_space")
            << 2
            << "a tensor of shape [0,4611686018427387904,1,4] is too big: its sizes multiply "
               "past 2^63 - 1 elements (a size of 0 does not make it an empty array; NumPy "
               "refuses it too)";
        // Without a size of 0 the remark on one has no place (a model file's input of
        // (2^63 - 1, 4) got it).
        QTest::newRow("no size of 0")
            << 3
            << "a tensor of shape [4611686018427387904,4] is too big: its sizes multiply past "
               "2^63 - 1 elements";
    }

    // An output dimension past int64 cannot be allocated: resource_exhausted, named.
    void refusedSizes()
    {
        QFETCH(int, which);
        QFETCH(QString, message);
        const std::string expected = message.toStdString();
        switch (which) {
        case 0: {
            const Tensor half = Tensor::zeros(DType::Int8, {kBig, 0});
            SS_EXPECT_ERROR(runOp("concat", {{half, half}}, {{"axis", 0}}),
                            ErrorCode::ResourceExhausted, expected);
            break;
        }
        case 1:
            SS_EXPECT_ERROR(runOp("space_to_depth", {{Tensor::zeros(DType::Int8, {0, 2, 2, kBig})}},
                                  {{"block_size", 2}}),
                            ErrorCode::ResourceExhausted, expected);
            break;
        case 2:
            SS_EXPECT_ERROR(runOp("depth_to_space", {{Tensor::zeros(DType::Int8, {0, kBig, 1, 4})}},
                                  {{"block_size", 2}}),
                            ErrorCode::ResourceExhausted, expected);
            break;
        default:
            SS_EXPECT_ERROR(Tensor::zeros(DType::Int8, {kBig, 4}), ErrorCode::ResourceExhausted,
                            expected);
            break;
        }
    }

    // Paddle: a start of 2^63 - 1 with stride -1 was moved up by one (signed overflow). It is
    // the far end, so the range runs from the last element down to just after `ends`.
    void paddleStartAtInt64Max()
    {
        const OpRun run = runOp("paddle_strided_slice", {{iota({3})}},
                                {{"axes", ints({0})},
                                 {"starts", ints({kMax})},
                                 {"ends", ints({0})},
                                 {"strides", ints({-1})}});
        QCOMPARE(values(run.outputs[0]), (std::vector<std::int64_t>{2, 1}));
        const OpRun both = runOp("paddle_strided_slice", {{iota({3})}},
                                 {{"axes", ints({0})},
                                  {"starts", ints({kMax})},
                                  {"ends", ints({kMax})},
                                  {"strides", ints({-1})}});
        QCOMPARE(both.outputs[0].size(), std::int64_t(0));
        // Both ends past the dimension but in the wrong order is still refused, as before.
        SS_EXPECT_ERROR(runOp("paddle_strided_slice", {{iota({3})}},
                              {{"axes", ints({0})},
                               {"starts", ints({kMax - 1})},
                               {"ends", ints({kMax})},
                               {"strides", ints({-1})}}),
                        ErrorCode::InvalidArgument,
                        "The start index and end index are invalid for their corresponding "
                        "stride.");
    }

    // tf.slice with size -1 computed dim - begin, which overflows for begin near INT64_MIN; the
    // begin check refuses that begin.
    void sliceSizeMinusOneFarBegin()
    {
        SS_EXPECT_ERROR(
            runOp("slice", {{iota({3})}}, {{"begin", ints({kMin})}, {"size", ints({-1})}}),
            ErrorCode::InvalidArgument,
            "Expected begin[0] in [0, 3], but got -9223372036854775808");
    }
};

QTEST_APPLESS_MAIN(TestCheckedArithmetic)
#include "tst_checked_arithmetic.moc"
