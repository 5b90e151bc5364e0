// SPDX-License-Identifier: GPL-3.0-or-later
// The framework models' rules, case by case, where no real library on Debian can check them
// (JAX, PaddlePaddle, TensorFlow) or where a rule is worth naming (the ONNX clamps, PyTorch's two
// ellipses). Each row: the framework, the input shape (x = arange), the subscript, and the
// outcome: "shape (...) [values]", "Type: message" or "not modelled".
#include "core/frameworks/framework_comparison.h"
#include "framework_oracle.h"
#include "subscript_gen.h"

#include <QTest>

using namespace ss;
using namespace ss::testing;

namespace {

std::string outcomeText(const ModelRun& r)
{
    switch (r.outcome.kind) {
    case FrameworkOutcome::Kind::Result: return describeRun(true, r.shape, r.values, "");
    case FrameworkOutcome::Kind::Error: return r.outcome.errorType + ": " + r.outcome.message;
    default: return "not modelled";
    }
}

} // namespace

class TestFrameworkModels : public QObject
{
    Q_OBJECT

private slots:
    // The compare op is the frameworks library's: linking the library (this suite links it and
    // the core, nothing else) registers it after the core's ops, where `slicescope-cli ops`
    // lists it, and its example runs like any op's.
    void compareOpJoinsTheRegistry()
    {
        const OpDef* compare = findOp("compare");
        QVERIFY(compare);
        QCOMPARE(&allOps().back(), compare);
        std::vector<std::vector<Tensor>> inputs;
        for (const auto& list : compare->example.inputs) {
            inputs.emplace_back();
            for (const ExampleTensor& t : list)
                inputs.back().push_back(makeExampleTensor(t, Limits::machineDefault()));
        }
        const OpPlan plan = compare->plan(
            OpCall(*compare, std::move(inputs), compare->example.attrs, Limits::machineDefault()));
        // x[4:-6:-1]: TensorFlow's result (NumPy, JAX and ONNX read the same) and PaddlePaddle's.
        QCOMPARE(plan.outputs.size(), std::size_t(2));
    }

    void rules_data()
    {
        QTest::addColumn<QString>("framework");
        QTest::addColumn<QString>("shape");
        QTest::addColumn<QString>("expr");
        QTest::addColumn<QString>("outcome");
        auto row = [](const char* name, const char* fw, const char* shape, const char* expr,
                      const char* outcome) {
            QTest::newRow(name) << fw << shape << expr << outcome;
        };
        // JAX (jax/_src/numpy/indexing.py): out-of-range integers clamp, after one wrap.
        row("jax clamps past the end", "jax", "5", "x[7]", "shape () [4]");
        row("jax wraps once, then clamps", "jax", "5", "x[-7]", "shape () [0]");
        row("jax reads slices as NumPy", "jax", "5", "x[4:-6:-1]", "shape (5,) [4 3 2 1 0]");
        row("jax refuses an index on a size-0 axis", "jax", "0,3", "x[0]",
            "IndexError: index is out of bounds for axis 0 with size 0");
        row("jax counts before ellipses without None", "jax", "2,3", "x[0, 0, 0, ...]",
            "IndexError: Too many indices: 2-dimensional array indexed with 3 regular indices.");
        row("jax names the item types", "jax", "2,3", "x[..., 0, ...]",
            "IndexError: Multiple ellipses (...) not supported: [<class 'ellipsis'>, <class "
            "'int'>, <class 'ellipsis'>].");
        row("jax with None checks ellipses first", "jax", "2,3", "x[None, ..., ...]",
            "IndexError: an index can only have a single ellipsis ('...')");
        row("jax one index", "jax", "2", "x[0, 0]",
            "IndexError: Too many indices: 1-dimensional array indexed with 2 regular indices.");
        row("jax step 0", "jax", "5", "x[::0]", "ValueError: slice step cannot be zero");
        row("jax refuses a list of integers", "jax", "5", "x[[0, 1]]",
            "TypeError: Using a non-tuple sequence for multidimensional indexing is not allowed; "
            "use `arr[array(seq)]` instead of `arr[seq]`. See "
            "https://github.com/jax-ml/jax/issues/4564 for more information.");
        row("jax refuses a list with None", "jax", "5", "x[[None, 0]]",
            "TypeError: Using a non-tuple sequence for multidimensional indexing is not allowed; "
            "use `arr[tuple(seq)]` instead of `arr[seq]`. See "
            "https://github.com/jax-ml/jax/issues/4564 for more information.");
        row("jax does not model a bool", "jax", "5", "x[True]", "not modelled");
        // PaddlePaddle: strided_slice's own rules, then squeeze and unsqueeze.
        row("paddle stops before 0", "paddle", "5", "x[4:-6:-1]", "shape (4,) [4 3 2 1]");
        row("paddle end -1 runs through 0", "paddle", "5", "x[4:-1:-1]", "shape (5,) [4 3 2 1 0]");
        row("paddle refuses a range against the stride", "paddle", "5", "x[3:1]",
            "ValueError: The start index and end index are invalid for their corresponding "
            "stride.");
        row("paddle step 0", "paddle", "5", "x[::0]",
            "ValueError: stride index in StridedSlice operator is 0.");
        row("paddle last element", "paddle", "5", "x[-1]", "shape () [4]");
        row("paddle index and new axis", "paddle", "2,3", "x[None, 1, ::-1]",
            "shape (1, 3) [5 4 3]");
        row("paddle leaves an out-of-range index undefined", "paddle", "5", "x[7]", "not modelled");
        row("paddle rank cap", "paddle", "1,1,1,1,1,1,1", "x[0]",
            "ValueError: The dimension of StridedSlice operator's input should be less than 7, "
            "but received dimension is 7.");
        row("paddle axis past the rank", "paddle", "2", "x[0, 0]",
            "ValueError: The axes should be less than or equal to input tensor's rank.But "
            "received 1 of axes[1], input tensor shape [1]");
        // ONNX opset 13: Slice's clamps, Gather's bounds.
        row("onnx end -6 clamps to -1", "onnx", "5", "x[4:-6:-1]", "shape (5,) [4 3 2 1 0]");
        row("onnx end -1 is 4", "onnx", "5", "x[4:-1:-1]", "shape (0,) []");
        row("onnx reverses an empty axis to nothing", "onnx", "0", "x[::-1]", "shape (0,) []");
        row("onnx clamps a start before 0 up to 0", "onnx", "5", "x[-7::-1]", "shape (1,) [0]");
        row("numpy clamps it to -1", "numpy", "5", "x[-7::-1]", "shape (0,) []");
        row("onnx gather bounds", "onnx", "5", "x[5]",
            "ONNX: Gather: index 5 is out of bounds for axis 0 of size 5; every index must lie "
            "in [-5, 4] (ONNX Runtime: indices element out of data bounds, idx=5 must be within "
            "the inclusive range [-5,4]).");
        row("onnx step 0", "onnx", "5", "x[::0]",
            "InferenceError: [ShapeInferenceError] 'step' cannot be 0 for Slice");
        row("onnx two ellipses", "onnx", "2,3", "x[..., ...]", "not modelled");
        // TensorFlow is the engine's own getitem.
        row("tensorflow index out of range", "tensorflow", "5", "x[7]",
            "OutOfRangeError: slice index 7 of dimension 0 out of bounds.");
        row("tensorflow list read as a tuple", "tensorflow", "2,3", "x[[1, 2]]", "shape () [5]");
        // PyTorch 1.13 (also checked against the real library by tst_framework_torch).
        row("torch two ellipses", "torch", "2,3", "x[..., 0, ...]", "shape (2,) [0 3]");
        row("torch names the subscript position", "torch", "2,3", "x[None, 5]",
            "IndexError: index 5 is out of bounds for dimension 1 with size 2");
        row("torch 0-dim index", "torch", "", "x[0]",
            "IndexError: invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
            "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
        // at::slice's length (5 + step - 1) / step wraps to 0 in int64: torch answers empty.
        row("torch huge step", "torch", "5", "x[::9223372036854775807]", "shape (0,) []");
        row("torch huge step whose stride goes negative", "torch", "5,2",
            "x[::9223372036854775806]",
            "RuntimeError: as_strided: Negative strides are not supported at the moment, got "
            "strides: [-4, 1]");
        row("torch stride that is no SymInt", "torch", "5,2", "x[::4611686018427387904]",
            "RuntimeError: IntArrayRef contains an int that cannot be represented as a SymInt: "
            "-9223372036854775808");
        row("torch two ellipses before None", "torch", "1,2,3", "x[..., ..., None]",
            "IndexError: Dimension out of range (expected to be in range of [-4, 3], but got 6)");
        row("torch two ellipses before a slice", "torch", "1,2,3", "x[..., ..., :]",
            "IndexError: Dimension out of range (expected to be in range of [-3, 2], but got 4)");
        row("torch rank-0 bound below -2^62", "torch", "", "x[-9223372036854775808::1]",
            "RuntimeError: Expected !is_symbolic() to be true, but got false.  (Could this error "
            "message be improved?  If so, please report an enhancement request to PyTorch.)");
        // Advanced indexing (also checked against the real libraries by the *_advanced suites).
        row("numpy index arrays separated by a slice go first", "numpy", "2,3,4",
            "x[[0, 1], :, [2, 3]]", "shape (2, 3) [2 6 10 15 19 23]");
        row("numpy adjacent index arrays stay in place", "numpy", "2,3,4", "x[:, [0, 2], [1, 3]]",
            "shape (2, 2) [1 11 13 23]");
        row("numpy integers join the index arrays", "numpy", "2,3,4", "x[0, :, [1, 2]]",
            "shape (2, 3) [1 5 9 2 6 10]");
        row("torch integers select first", "torch", "2,3,4", "x[0, :, [1, 2]]",
            "shape (3, 2) [1 2 5 6 9 10]");
        row("numpy mask", "numpy", "2,3", "x[[True, False]]", "shape (1, 3) [0 1 2]");
        row("numpy broadcast failure", "numpy", "2,3", "x[[0, 1], [0, 1, 2]]",
            "IndexError: shape mismatch: indexing arrays could not be broadcast together with "
            "shapes (2,) (3,) ");
        row("torch reads a list of lists as a tuple", "torch", "2,3", "x[[[0, 1], [2, 0]]]",
            "shape (2,) [2 3]");
        row("numpy reads a list of lists as one array", "numpy", "2,3", "x[[[0, 1], [1, 0]]]",
            "shape (2, 2, 3) [0 1 2 3 4 5 3 4 5 0 1 2]");
        // JAX: "for retrieval operations (as in NumPy indexing or gather-like primitives) the
        // index is clamped to the bounds of the array since something must be returned" (JAX
        // sharp bits, "Out-of-bounds indexing",
        // https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html), after a negative
        // index is wrapped once (jnp's _normalize_index); index arrays otherwise follow NumPy's
        // rules ("Indexing", https://docs.jax.dev/en/latest/jax.numpy.html and NumPy's
        // advanced indexing it refers to).
        row("jax clamps an index array", "jax", "5", "x[[7, -1, -9],]", "shape (3,) [4 4 0]");
        row("jax wraps a negative index once", "jax", "5", "x[[-2, -5],]", "shape (2,) [3 0]");
        row("jax index arrays separated by a slice go first", "jax", "2,3,4",
            "x[[0, 1], :, [2, 9]]", "shape (2, 3) [2 6 10 15 19 23]");
        row("jax mask", "jax", "2,3", "x[[True, False],]", "shape (1, 3) [0 1 2]");
        row("jax mask of the wrong shape", "jax", "2,3", "x[[True, False, True],]",
            "IndexError: boolean index did not match shape of indexed array in index 0: got "
            "(3,), expected (2,)");
        row("jax index arrays that do not broadcast", "jax", "2,3", "x[[0, 1], [0, 1, 2]]",
            "ValueError: Incompatible shapes for broadcasting: shapes=[(2,), (3,)]");
        row("jax bool beside index arrays", "jax", "2,3", "x[True, [0]]", "not modelled");
        // More indices than dimensions, with a ':' past the rank: Paddle refuses the axis.
        row("paddle trailing colon past the rank", "paddle", "2,3,4",
            "x[1, 2:4, None, ..., :-3:-1, :]",
            "ValueError: The axes should be less than or equal to input tensor's rank.But "
            "received 3 of axes[3], input tensor shape [3]");
    }

    void rules()
    {
        QFETCH(QString, framework);
        QFETCH(QString, shape);
        QFETCH(QString, expr);
        QFETCH(QString, outcome);
        Shape s;
        for (const QString& d : shape.split(u',', Qt::SkipEmptyParts))
            s.push_back(d.toLongLong());
        const FrameworkModel* model = findFramework(framework.toStdString());
        QVERIFY(model);
        const ModelRun run = runModel(*model, IndexSpec::fromExpression(expr.toStdString()), s);
        QCOMPARE(outcomeText(run), outcome.toStdString());
        // Every outcome explains itself.
        QVERIFY(!run.outcome.plan.steps.empty());
    }

    // Every model on thousands of random subscripts: each plan reads inside its input (runModel
    // executes it and checks sources against values), and where NumPy returns a result, JAX
    // (jnp reads valid subscripts as NumPy does) and ONNX (Slice's clamps are slice.indices')
    // return the same one. Where NumPy refuses an integer, JAX clamps it or ONNX's Gather
    // refuses it too.
    void randomSubscriptsInEveryModel()
    {
        SubscriptGenerator gen(20261127);
        int agreeing = 0;
        for (int k = 0; k < 3000; ++k) {
            const Shape shape = gen.shape();
            const std::string text = gen.subscript(int(shape.size())).engineText;
            const IndexSpec spec = IndexSpec::fromExpression(text);
            std::vector<ModelRun> runs;
            for (const FrameworkModel* m : frameworkModels()) {
                try {
                    runs.push_back(runModel(*m, spec, shape));
                } catch (const std::exception& e) {
                    QFAIL((std::string(m->key()) + " on " + text + " shape " + shapeTuple(shape) +
                           ": " + e.what())
                              .c_str());
                }
            }
            const ModelRun& numpy = runs[std::size_t(Framework::NumPy)];
            if (numpy.outcome.kind != FrameworkOutcome::Kind::Result) continue;
            // A list subscript is an index array to NumPy; JAX refuses it and ONNX's Slice
            // has no reading of it.
            if (spec.subscript->form == Subscript::Form::List) continue;
            // The one place ONNX's spec parts from NumPy: a negative step whose start lies
            // before the first element is clamped up to 0 (NumPy: to -1, nothing read).
            bool onnxDiffers = false;
            const auto& items = spec.subscript->items;
            const auto dims = frameworks::consumedDims(items, int(shape.size()));
            for (std::size_t i = 0; i < items.size(); ++i)
                if (items[i].kind == SubscriptItem::Kind::Slice && items[i].step.value_or(1) < 0 &&
                    items[i].start && dims[i] >= 0 && shape[std::size_t(dims[i])] > 0 &&
                    *items[i].start < -shape[std::size_t(dims[i])])
                    onnxDiffers = true;
            for (Framework f : {Framework::Jax, Framework::Onnx}) {
                if (f == Framework::Onnx && onnxDiffers) continue;
                const ModelRun& r = runs[std::size_t(f)];
                const std::string where = std::string(frameworkModel(f).key()) + " on " + text +
                                          " shape " + shapeTuple(shape) + ": " + outcomeText(r) +
                                          ", NumPy " + outcomeText(numpy);
                QVERIFY2(r.outcome.kind == FrameworkOutcome::Kind::Result &&
                             r.shape == numpy.shape && r.values == numpy.values,
                         where.c_str());
            }
            ++agreeing;
        }
        QVERIFY(agreeing > 1000);
    }

    // The steps light what they talk about: ONNX's Slice step names its axis and item.
    void stepsHighlight()
    {
        const ModelRun run = runModel(frameworkModel(Framework::Onnx),
                                      IndexSpec::fromExpression("x[1, ::-1]"), {2, 3});
        bool found = false;
        for (const Step& step : run.outcome.plan.steps)
            if (step.title == "Slice, axis 1") {
                found = true;
                QCOMPARE(step.inputDims, std::vector<int>{1});
                QCOMPARE(step.specEntries, std::vector<int>{1});
                QVERIFY2(step.detail.find("clamped into [0, 2]") != std::string::npos,
                         step.detail.c_str());
            }
        QVERIFY(found);
    }
};

QTEST_APPLESS_MAIN(TestFrameworkModels)
#include "tst_framework_models.moc"
