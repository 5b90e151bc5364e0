// SPDX-License-Identifier: GPL-3.0-or-later
// Every op's example (OpDef::example, what the GUI opens when the op is picked) runs: it gives
// every required attribute, fits the op's inputs, and produces a non-empty result whose values
// agree with its sources. Also the example tensors' own reader.
#include "op_runner.h"

#include <QTest>

#include <algorithm>

using namespace ss;
using namespace ss::testing;

Q_DECLARE_METATYPE(ss::DType)

class TestOpExamples : public QObject
{
    Q_OBJECT
private slots:
    void everyExampleRuns_data();
    void everyExampleRuns();
    void everyExampleMovesEveryDType_data();
    void everyExampleMovesEveryDType();
    void notationsNameDeclaredAttributes();
    void exampleTensorsAreMadeAsWritten();
    void badExampleTensorsAreRefused();
};

void TestOpExamples::everyExampleRuns_data()
{
    QTest::addColumn<QString>("op");
    for (const OpDef& def : allOps())
        QTest::newRow(def.name.c_str()) << QString::fromStdString(def.name);
}

void TestOpExamples::everyExampleRuns()
{
    QFETCH(QString, op);
    const OpDef& def = *findOp(op.toStdString());
    const OpExample& ex = def.example;
    QCOMPARE(ex.inputs.size(), def.inputs.size());
    std::vector<std::vector<Tensor>> inputs;
    for (std::size_t k = 0; k < def.inputs.size(); ++k) {
        if (def.inputs[k].isList)
            QVERIFY2(!ex.inputs[k].empty(), def.inputs[k].name.c_str());
        else
            QCOMPARE(ex.inputs[k].size(), std::size_t(1));
        inputs.emplace_back();
        for (const ExampleTensor& t : ex.inputs[k])
            inputs.back().push_back(makeExampleTensor(t, Limits{}));
    }
    // The example names attributes as the op declares them, and gives each required one (an
    // empty required field is what made ops open in an error).
    for (const auto& attr : ex.attrs)
        QVERIFY2(std::any_of(def.attrs.begin(), def.attrs.end(),
                             [&](const AttrDef& a) { return a.name == attr.first; }),
                 attr.first.c_str());
    for (const AttrDef& a : def.attrs)
        if (a.defaultText.empty()) QVERIFY2(ex.attrs.count(a.name), a.name.c_str());

    OpRun run;
    try {
        run = runOp(def.name, inputs, ex.attrs);
    } catch (const OpError& e) {
        QFAIL(e.what());
    }
    QVERIFY(!run.plan.steps.empty());
    if (run.outputs.empty()) {
        QVERIFY2(!run.plan.extras.empty(), "an op without tensor outputs answers with extras");
    } else {
        for (const Tensor& out : run.outputs)
            QVERIFY2(out.size() > 0, "every output of an example shows something");
    }
    // Small enough to read cell by cell in the GUI.
    for (const Tensor& in : run.inputs)
        QVERIFY(in.size() <= 64);
    for (const Tensor& out : run.outputs)
        QVERIFY(out.size() <= 64);
}

namespace {

// Inputs that hold indices, masks or lengths rather than the data an op moves.
bool isIndexInput(const std::string& name)
{
    return name == "indices" || name == "partitions" || name == "mask" || name == "lengths" ||
           name == "seq_lengths";
}

// The ops whose TensorFlow kernels are registered for real numbers (TF_CALL_REAL_NUMBER_TYPES),
// with bool and string for unique: complex numbers have no kernel there.
bool refusesComplex(const std::string& op)
{
    return op == "space_to_batch_nd" || op == "space_to_batch" || op == "batch_to_space_nd" ||
           op == "batch_to_space" || op == "extract_image_patches" || op == "unique_with_counts";
}

// Every bit pattern of the dtype is as likely (NaN payloads, subnormals, -0, infinities).
Tensor randomBits(DType dtype, const Shape& shape, std::uint64_t seed)
{
    Tensor t = Tensor::empty(dtype, shape);
    auto* bytes = static_cast<unsigned char*>(t.raw());
    for (std::int64_t k = 0; k < t.size() * dtypeSize(dtype); ++k) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        bytes[k] = static_cast<unsigned char>(seed >> 56);
    }
    return t;
}

} // namespace

void TestOpExamples::everyExampleMovesEveryDType_data()
{
    QTest::addColumn<QString>("op");
    QTest::addColumn<DType>("dtype");
    for (const OpDef& def : allOps()) {
        const bool movesData =
            std::any_of(def.inputs.begin(), def.inputs.end(),
                        [](const InputDef& in) { return !isIndexInput(in.name); });
        if (!movesData) continue;
        for (DType t : {DType::Float16, DType::BFloat16, DType::Complex64, DType::Complex128,
                        DType::UInt16, DType::UInt32, DType::UInt64})
            QTest::addRow("%s %s", def.name.c_str(), std::string(dtypeName(t)).c_str())
                << QString::fromStdString(def.name) << t;
    }
}

// Each op's example with its data in another dtype: the same plan as with the example's own
// dtype (the elements hold the same small integers), every element equal to its source bit for
// bit, and again with random bit patterns, which only the moving of bits keeps intact.
void TestOpExamples::everyExampleMovesEveryDType()
{
    QFETCH(QString, op);
    QFETCH(DType, dtype);
    const OpDef& def = *findOp(op.toStdString());
    const OpExample& ex = def.example;
    std::vector<std::vector<Tensor>> original, converted, random;
    std::uint64_t seed = 1;
    for (std::size_t k = 0; k < def.inputs.size(); ++k) {
        original.emplace_back();
        converted.emplace_back();
        random.emplace_back();
        for (const ExampleTensor& e : ex.inputs[k]) {
            const Tensor t = makeExampleTensor(e, Limits{});
            original.back().push_back(t);
            if (isIndexInput(def.inputs[k].name) || t.dtype() == DType::String) {
                converted.back().push_back(t);
                random.back().push_back(t);
                continue;
            }
            Tensor c = Tensor::empty(dtype, t.shape());
            for (std::int64_t i = 0; i < t.size(); ++i)
                c.setFromInt(i, t.intAt(i));
            converted.back().push_back(c);
            random.back().push_back(randomBits(dtype, t.shape(), seed++));
        }
    }
    Attrs attrs = ex.attrs;
    // pad's example fills with -1, which no unsigned dtype holds (refused, as TensorFlow's
    // conversion refuses it): fill with 1 there.
    if (isUnsigned(dtype) && attrs.count("constant_values")) attrs["constant_values"] = Attr(1);
    if (isComplex(dtype) && refusesComplex(def.name)) {
        try {
            runOp(def.name, converted, attrs);
            QFAIL("complex input accepted where TensorFlow has no kernel");
        } catch (const OpError& e) {
            QCOMPARE(e.code(), ErrorCode::InvalidArgument);
            QVERIFY2(std::string(e.what()).find("has dtype " + std::string(dtypeName(dtype)) +
                                                ", but " + def.name + " takes real numbers") !=
                         std::string::npos,
                     e.what());
        }
        return;
    }
    OpRun expected, run;
    try {
        expected = runOp(def.name, original, attrs);
        run = runOp(def.name, converted, attrs); // checks every element against its source
        runOp(def.name, random, attrs);
    } catch (const OpError& e) {
        QFAIL(e.what());
    }
    QCOMPARE(run.outputs.size(), expected.outputs.size());
    for (std::size_t k = 0; k < run.outputs.size(); ++k) {
        QCOMPARE(run.outputs[k].shape(), expected.outputs[k].shape());
        QVERIFY(run.sources[k] == expected.sources[k]);
        // Outputs that move data keep its dtype; the others (idx, count) keep their own.
        if (std::any_of(run.sources[k].begin(), run.sources[k].end(),
                        [](std::int64_t s) { return s != kNoSource; }))
            QCOMPARE(run.outputs[k].dtype(), dtype);
        // Elements without a source (pad's fill, gradients' zeros) are the dtype's zero.
        for (std::int64_t i = 0; i < run.outputs[k].size(); ++i)
            if (run.sources[k][std::size_t(i)] == kNoSource && run.outputs[k].dtype() == dtype)
                QCOMPARE(run.outputs[k].complexAt(i),
                         std::complex<double>(expected.outputs[k].doubleAt(i)));
    }
}

void TestOpExamples::notationsNameDeclaredAttributes()
{
    for (const OpDef& def : allOps())
        for (const std::string& name : notationAttrs(def.notation))
            QVERIFY2(std::any_of(def.attrs.begin(), def.attrs.end(),
                                 [&](const AttrDef& a) { return a.name == name; }),
                     (def.name + ": " + name).c_str());
    QCOMPARE(findOp("getitem")->notation, Notation::Subscript);
    QCOMPARE(findOp("strided_slice_grad")->notation, Notation::RawStridedSlice);
    QCOMPARE(findOp("slice")->notation, Notation::Box);
    QCOMPARE(findOp("paddle_strided_slice")->notation, Notation::PaddleAxes);
    QCOMPARE(findOp("tile")->notation, Notation::Generic);
    QCOMPARE(notationName(Notation::PaddleAxes), std::string_view("paddle axes"));
}

void TestOpExamples::exampleTensorsAreMadeAsWritten()
{
    const Tensor filled = makeExampleTensor(exampleFill(DType::Int64, {2, 3}), Limits{});
    QCOMPARE(filled.shape(), Shape({2, 3}));
    QCOMPARE(values(filled), std::vector<std::int64_t>({0, 1, 2, 3, 4, 5}));
    const Tensor nested = makeExampleTensor(
        exampleValue(DType::Int32, Attr::List{Attr::List{1, 2}, Attr::List{3, -4}}), Limits{});
    QCOMPARE(nested.shape(), Shape({2, 2}));
    QCOMPARE(values(nested), std::vector<std::int64_t>({1, 2, 3, -4}));
    const Tensor mask = makeExampleTensor(exampleValue(DType::Bool, Attr::List{true, false}), {});
    QCOMPARE(mask.dtype(), DType::Bool);
    QCOMPARE(values(mask), std::vector<std::int64_t>({1, 0}));
    const Tensor floats = makeExampleTensor(exampleValue(DType::Float32, Attr::List{1, 2.5}), {});
    QCOMPARE(floats.doubleAt(1), 2.5);
    const Tensor scalar = makeExampleTensor(exampleValue(DType::String, Attr("a")), {});
    QCOMPARE(scalar.shape(), Shape{});
    QCOMPARE(scalar.data<std::string>()[0], std::string("a"));
}

void TestOpExamples::badExampleTensorsAreRefused()
{
    SS_EXPECT_ERROR(
        makeExampleTensor(exampleValue(DType::Int32, Attr::List{Attr::List{1, 2}, Attr::List{3}}),
                          {}),
        ErrorCode::BadRequest, "");
    SS_EXPECT_ERROR(makeExampleTensor(exampleValue(DType::Bool, Attr::List{1, 0}), {}),
                    ErrorCode::BadRequest, "");
    SS_EXPECT_ERROR(makeExampleTensor(exampleValue(DType::Int32, Attr::List{1.5}), {}),
                    ErrorCode::BadRequest, "");
    Limits tiny;
    tiny.maxElements = 3;
    SS_EXPECT_ERROR(makeExampleTensor(exampleFill(DType::Int32, {2, 2}), tiny),
                    ErrorCode::ResourceExhausted, "");
}

QTEST_APPLESS_MAIN(TestOpExamples)
#include "tst_op_examples.moc"
