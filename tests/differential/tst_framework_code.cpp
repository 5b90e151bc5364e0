// SPDX-License-Identifier: GPL-3.0-or-later
// Golden tests for the generated code and the compare outcomes (golden/frameworks/*.txt: the
// spec, then each framework's code and the comparison). Debian ships no TensorFlow, JAX or
// PaddlePaddle, so their code is also checked against the engine's own models: the
// tf.strided_slice arguments and masks in the TensorFlow code run through the engine's
// strided_slice op, the paddle.strided_slice/squeeze/unsqueeze arguments through
// paddle_strided_slice, and the lax.slice/rev/squeeze/expand_dims line through NumPy (whose
// basic slicing lax.slice's forward strides share), each giving the framework model's result.
//
// Copy as's whole snippets (runnableCode: the inputs built, `y = ` the result) run as pasted in
// every framework whose library Debian ships: NumPy and PyTorch give the engine's values for
// every op example (the framework model's, for a slice spec); ONNX's builds and checks its model
// (python3-onnx 1.12 has no onnx.reference to run it, and Debian ships no ONNX Runtime).
//
// SLICESCOPE_UPDATE_GOLDEN=1 rewrites the files; review the diff before committing it.
#include "core/frameworks/code_snippet.h"
#include "core/frameworks/framework_comparison.h"
#include "core/frameworks/op_equivalents.h"
#include "framework_oracle.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

using namespace ss;
using namespace ss::testing;

namespace {

QString goldenDir()
{
    return sourceDir() + QStringLiteral("/tests/differential/golden/frameworks");
}

Shape parseShape(const QString& text)
{
    Shape s;
    for (const QString& part : text.split(u',', Qt::SkipEmptyParts))
        s.push_back(part.trimmed().toLongLong());
    return s;
}

std::vector<std::int64_t> parseInts(const QString& text)
{
    std::vector<std::int64_t> v;
    static const QRegularExpression number(QStringLiteral("-?\\d+"));
    for (auto it = number.globalMatch(text); it.hasNext();)
        v.push_back(it.next().captured().toLongLong());
    return v;
}

// The golden text for a spec: each framework's code (or why there is none) and the comparison.
std::string goldenText(const Shape& shape, const std::string& expr)
{
    const IndexSpec spec = IndexSpec::fromExpression(expr);
    std::string out = "shape: ";
    for (std::size_t k = 0; k < shape.size(); ++k)
        out += (k ? "," : "") + std::to_string(shape[k]);
    out += "\nexpr: " + expr + "\n";
    for (const FrameworkModel* m : frameworkModels()) {
        out += "== " + std::string(m->key()) + " ==\n";
        try {
            out += m->code(spec, shape);
        } catch (const OpError& e) {
            out += std::string("(no code: ") + e.what() + ")\n";
        }
    }
    out += "== compare ==\n";
    const FrameworkComparison c =
        compareFrameworks(spec, iota(shape, 0, DType::Int64), Limits::machineDefault());
    for (std::size_t i = 0; i < c.outcomes.size(); ++i) {
        out += std::string(frameworkModel(c.outcomes[i].framework).key()) + ": " +
               outcomeSummary(c.outcomes[i]) + "\n";
        if (c.differs[i]) out += "  differs: " + c.reasons[i] + "\n";
    }
    return out;
}

std::string section(const std::string& text, const std::string& name)
{
    const std::string head = "== " + name + " ==\n";
    const auto start = text.find(head);
    if (start == std::string::npos) return {};
    const auto from = start + head.size();
    const auto end = text.find("\n== ", from);
    return text.substr(from, end == std::string::npos ? std::string::npos : end + 1 - from);
}

ModelRun modelRun(Framework f, const Shape& shape, const std::string& expr)
{
    return runModel(frameworkModel(f), IndexSpec::fromExpression(expr), shape);
}

// What a snippet's result is compared with: every output flattened one after another.
struct Expected
{
    bool raises = false;
    Shape shape; ///< for a single output
    std::vector<std::int64_t> values;
};

// Lists (split, unique_with_counts) are every output flattened in turn, as Expected holds them;
// ONNX's code ends with the model it built, which counts as an empty result.
const char* const kFlattenResults = R"PY(
def result_of(r, x):
    if isinstance(r, (list, tuple)):
        parts = [np.asarray(v).ravel() for v in r]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    if type(r).__module__.startswith('onnx'):
        return np.zeros(0, dtype=np.int64)
    return r
)PY";

// getitem and strided_slice (OpDef::indexSpec): the framework models write their code.
bool writtenAsSpec(const OpDef& def)
{
    return def.indexSpec;
}

// The tf.gather / tf.boolean_mask / tf.gather_nd call offered for an index array, run by
// the engine's own ops of those names (TensorFlow's semantics), gives NumPy's reading.
void gatherCodeRunsAsNumpy(const QString& code, const Shape& shape, const std::string& expr)
{
    // A Python list literal, read by the subscript parser as an index array.
    auto array = [](const QString& list) {
        const Subscript s = parseSubscript("x[" + list.toStdString() + ",]");
        const SubscriptItem& it = s.items.at(0);
        if (it.kind != SubscriptItem::Kind::IndexArray)
            throw std::runtime_error("not a list: " + list.toStdString());
        return ints(it.arrayIsBool ? DType::Bool : DType::Int64, it.arrayShape, it.arrayValues);
    };
    static const QRegularExpression gather(
        QStringLiteral("y = tf\\.(gather|boolean_mask)\\(x, (.*), axis=(\\d+)\\)\\n"));
    static const QRegularExpression broadcast(
        QStringLiteral("tf\\.broadcast_to\\((\\[[^\\n]*?\\]), \\[([0-9, ]*)\\]\\)"));
    const Tensor x = iota(shape, 0, DType::Int64);
    OpRun run;
    if (const auto m = gather.match(code); m.hasMatch()) {
        const Attrs attrs{{"axis", Attr(std::int64_t(m.captured(3).toLongLong()))}};
        run = runOp(m.captured(1).toStdString(), {{x}, {array(m.captured(2))}}, attrs);
    } else {
        QVERIFY2(code.contains(QStringLiteral("y = tf.gather_nd(x, tf.stack([")), qPrintable(code));
        std::vector<Tensor> columns;
        for (auto it = broadcast.globalMatch(code); it.hasNext();) {
            const auto m = it.next();
            const Tensor a = array(m.captured(1));
            Shape to;
            for (const QString& d : m.captured(2).split(u',', Qt::SkipEmptyParts))
                to.push_back(d.trimmed().toLongLong());
            // tf.broadcast_to, by hand: right-aligned, size-1 dimensions repeat.
            std::vector<std::int64_t> v;
            const std::vector<std::int64_t> src = values(a);
            std::vector<std::int64_t> c(to.size(), 0);
            for (std::int64_t e = 0; e < numElements(to); ++e) {
                std::int64_t off = 0;
                for (std::size_t k = 0; k < a.shape().size(); ++k) {
                    const std::int64_t n = a.shape()[k];
                    off = off * n + (n == 1 ? 0 : c[to.size() - a.shape().size() + k]);
                }
                v.push_back(src[std::size_t(off)]);
                for (std::size_t k = to.size(); k-- > 0;) {
                    if (++c[k] < to[k]) break;
                    c[k] = 0;
                }
            }
            columns.push_back(ints(DType::Int64, to, v));
        }
        QVERIFY(columns.size() >= 2);
        const OpRun stacked = runOp("stack", {columns}, {{"axis", Attr(std::int64_t(-1))}});
        run = runOp("gather_nd", {{x}, {stacked.outputs[0]}});
    }
    const ModelRun numpy = modelRun(Framework::NumPy, shape, expr);
    QVERIFY(numpy.outcome.kind == FrameworkOutcome::Kind::Result);
    QCOMPARE(run.outputs[0].shape(), numpy.shape);
    QCOMPARE(values(run.outputs[0]), numpy.values);
}

} // namespace

class TestFrameworkCode : public QObject
{
    Q_OBJECT

private slots:
    void golden_data()
    {
        QTest::addColumn<QString>("file");
        const QStringList files =
            QDir(goldenDir()).entryList({QStringLiteral("*.txt")}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 8);
        for (const QString& f : files)
            QTest::newRow(qPrintable(f)) << goldenDir() + u'/' + f;
    }

    void golden()
    {
        QFETCH(QString, file);
        QFile in(file);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const std::string expected = in.readAll().toStdString();
        in.close();
        const QStringList head = QString::fromStdString(expected).split(u'\n');
        QVERIFY(head.size() > 2 && head[0].startsWith(QStringLiteral("shape: ")) &&
                head[1].startsWith(QStringLiteral("expr: ")));
        const Shape shape = parseShape(head[0].mid(7));
        const std::string expr = head[1].mid(6).toStdString();
        const std::string actual = goldenText(shape, expr);
        if (qEnvironmentVariableIsSet("SLICESCOPE_UPDATE_GOLDEN") && actual != expected) {
            QFile out(file);
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            out.write(QByteArray::fromStdString(actual));
            QSKIP("golden file rewritten");
        }
        QCOMPARE(actual, expected);
    }

    // Every op example's snippet, pasted into Python with the framework installed, gives the
    // engine's result (for a slice spec, the framework model's result or its error).
    void runnableCodeGivesTheResult_data()
    {
        QTest::addColumn<int>("framework");
        QTest::newRow("numpy") << int(Framework::NumPy);
        QTest::newRow("torch") << int(Framework::PyTorch);
        QTest::newRow("onnx builds its model") << int(Framework::Onnx);
    }
    void runnableCodeGivesTheResult()
    {
        QFETCH(int, framework);
        const auto f = Framework(framework);
        const Limits limits = Limits::machineDefault();
        std::vector<std::pair<Shape, std::string>> cases;
        std::vector<Expected> expected;
        std::vector<std::string> ops;
        for (const OpDef& def : allOps()) {
            if (def.inputs.empty()) continue;
            std::vector<std::vector<SnippetInput>> inputs;
            std::vector<std::vector<Tensor>> tensors;
            for (const auto& list : def.example.inputs) {
                inputs.emplace_back();
                tensors.emplace_back();
                for (const ExampleTensor& e : list) {
                    inputs.back().push_back(snippetInput(e, limits));
                    tensors.back().push_back(makeExampleTensor(e, limits));
                }
            }
            std::string code;
            try {
                code = runnableCode(f, def, inputs, def.example.attrs);
            } catch (const OpError& e) {
                QCOMPARE(e.code(), ErrorCode::InvalidArgument); // no direct equivalent
                continue;
            }
            // The code names its inputs as the GUI does and assigns the result.
            for (std::size_t k = 0; k < def.inputs.size(); ++k)
                QVERIFY2(code.find(snippetInputName(def, k) + " = ") != std::string::npos,
                         code.c_str());
            if (f != Framework::Onnx)
                QVERIFY2(code.find("\ny = ") != std::string::npos, code.c_str());
            Expected want;
            // Where the snippet's own note says the framework departs: PyTorch's one_hot
            // refuses the example's -1, which TensorFlow turns into a row of zeros.
            if (f == Framework::PyTorch && def.name == "one_hot") {
                QVERIFY(code.find("PyTorch refuses negative") != std::string::npos);
                want.raises = true;
            } else if (f != Framework::Onnx) {
                std::vector<Tensor> outputs;
                if (writtenAsSpec(def)) {
                    const IndexSpec spec = IndexSpec::fromAttrs(def.name, def.example.attrs);
                    FrameworkOutcome o = frameworkModel(f).plan(spec, tensors[0][0], limits);
                    // Where the framework refuses the spec (PyTorch's negative step), its code
                    // works around it (flip, then slice forward) and reads what NumPy reads.
                    if (o.kind == FrameworkOutcome::Kind::Error)
                        o = frameworkModel(Framework::NumPy).plan(spec, tensors[0][0], limits);
                    if (o.kind == FrameworkOutcome::Kind::NotModelled) continue;
                    want.raises = o.kind == FrameworkOutcome::Kind::Error;
                    if (!want.raises) outputs = executePlan(o.plan, tensors[0], testExecutor());
                } else {
                    outputs = runOp(def.name, tensors, def.example.attrs).outputs;
                }
                if (std::any_of(outputs.begin(), outputs.end(),
                                [](const Tensor& t) { return t.dtype() == DType::String; }))
                    continue;
                if (outputs.size() == 1) want.shape = outputs[0].shape();
                for (const Tensor& t : outputs) {
                    const auto v = values(t);
                    want.values.insert(want.values.end(), v.begin(), v.end());
                }
            }
            cases.emplace_back(Shape{}, code);
            expected.push_back(want);
            ops.push_back(def.name);
        }
        QVERIFY2(cases.size() >= (f == Framework::Onnx ? 8u : 10u),
                 qPrintable(QString::number(cases.size())));
        qInfo("%zu op examples' snippets run", cases.size());
        const auto runs =
            runCodeBatch(f == Framework::PyTorch ? "torch" : "numpy", cases, kFlattenResults);
        for (std::size_t k = 0; k < cases.size(); ++k) {
            const std::string what = ops[k] + ":\n" + cases[k].second + "-> " + runs[k].errorType +
                                     " " + runs[k].message;
            if (expected[k].raises) {
                QVERIFY2(!runs[k].ok, what.c_str());
                continue;
            }
            QVERIFY2(runs[k].ok, what.c_str());
            if (f == Framework::Onnx) continue;
            if (!expected[k].shape.empty() || expected[k].values.size() == 1)
                QVERIFY2(runs[k].shape == expected[k].shape, what.c_str());
            QVERIFY2(runs[k].values == expected[k].values, what.c_str());
        }
    }

    // Strings in NumPy's code are what NumPy itself makes of them: bytes as '|S' with bytes
    // literals (a byte past ASCII escaped), text as '<U' (was dtype=object, bytes either way),
    // as long as the file they came from said ('<U5' of a '<U5' file) or as the longest.
    void numpyCodeHoldsStringsAsNumpyDoes()
    {
        Tensor bytes = Tensor::empty(DType::String, {2});
        bytes.data<std::string>()[0] = "ab";
        bytes.data<std::string>()[1] = "\xff";
        bytes.setHoldsBytes(true);
        Tensor text = Tensor::empty(DType::String, {2});
        text.data<std::string>()[0] = "\xc3\xa9t\xc3\xa9";
        text.data<std::string>()[1] = "a";
        text.setItemLength(5);
        const OpDef& getitem = *findOp("getitem");
        const Attrs attrs{{"expr", Attr(std::string("x[::-1]"))}};
        QByteArray script = "import numpy as np\n";
        for (const Tensor& t : {bytes, text}) {
            SnippetInput in;
            in.dtype = DType::String;
            in.values = t;
            const std::string code = runnableCode(Framework::NumPy, getitem, {{in}}, attrs);
            script += QByteArray::fromStdString(code) + "print(x.dtype.str, y.tolist())\n";
        }
        QVERIFY2(script.contains("x = np.array([b'ab', b'\\xff'], dtype='|S2')"),
                 script.constData());
        QVERIFY2(script.contains("x = np.array(['\xc3\xa9t\xc3\xa9', 'a'], dtype='<U5')"),
                 script.constData());
        const QByteArray out = ss::testing::runNumpy(QString::fromUtf8(script), {});
        QCOMPARE(QString::fromUtf8(out),
                 QStringLiteral("|S2 [b'\\xff', b'ab']\n<U5 ['a', '\u00e9t\u00e9']\n"));
    }

    // The tf.strided_slice call in the TensorFlow code, run by the engine's strided_slice op,
    // gives the TensorFlow model's (getitem's) result.
    void tensorflowCodeRunsAsTheModel_data() { golden_data(); }
    void tensorflowCodeRunsAsTheModel()
    {
        QFETCH(QString, file);
        QFile in(file);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(in.readAll());
        const QStringList head = text.split(u'\n');
        const Shape shape = parseShape(head[0].mid(7));
        const std::string expr = head[1].mid(6).toStdString();
        const QString code = QString::fromStdString(section(text.toStdString(), "tensorflow"));
        if (code.startsWith(QStringLiteral("(no code: TensorFlow refuses index arrays"))) {
            // No single call: the NumPy reading exists, TensorFlow's subscript refuses it.
            QVERIFY(modelRun(Framework::TensorFlow, shape, expr).outcome.kind ==
                    FrameworkOutcome::Kind::Error);
            return;
        }
        if (code.contains(QStringLiteral("tf.gather")) ||
            code.contains(QStringLiteral("tf.boolean_mask")))
            return gatherCodeRunsAsNumpy(code, shape, expr);
        static const QRegularExpression call(QStringLiteral(
            "begin=(\\[[^\\]]*\\]), end=(\\[[^\\]]*\\]), strides=(\\[[^\\]]*\\]),\\s*"
            "begin_mask=(\\d+), end_mask=(\\d+), ellipsis_mask=(\\d+),\\s*new_axis_mask=(\\d+), "
            "shrink_axis_mask=(\\d+)"));
        const auto m = call.match(code);
        QVERIFY2(m.hasMatch(), qPrintable(code));
        Attrs attrs{{"begin", Attr::ints(parseInts(m.captured(1)))},
                    {"end", Attr::ints(parseInts(m.captured(2)))},
                    {"strides", Attr::ints(parseInts(m.captured(3)))}};
        const char* masks[] = {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                               "shrink_axis_mask"};
        for (int k = 0; k < 5; ++k)
            attrs.emplace(masks[k], Attr(std::int64_t(m.captured(4 + k).toLongLong())));
        const ModelRun model = modelRun(Framework::TensorFlow, shape, expr);
        try {
            const OpRun run = runOp("strided_slice", {{iota(shape, 0, DType::Int64)}}, attrs);
            QVERIFY(model.outcome.kind == FrameworkOutcome::Kind::Result);
            QCOMPARE(run.outputs[0].shape(), model.shape);
            QCOMPARE(values(run.outputs[0]), model.values);
        } catch (const OpError& e) {
            QVERIFY(model.outcome.kind == FrameworkOutcome::Kind::Error);
            QCOMPARE(std::string(e.what()), model.outcome.message);
        }
    }

    // paddle.strided_slice's arguments run through the engine's paddle_strided_slice op, then
    // squeeze and unsqueeze as written, give the Paddle model's result.
    void paddleCodeRunsAsTheModel_data() { golden_data(); }
    void paddleCodeRunsAsTheModel()
    {
        QFETCH(QString, file);
        QFile in(file);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(in.readAll());
        const QStringList head = text.split(u'\n');
        const Shape shape = parseShape(head[0].mid(7));
        const std::string expr = head[1].mid(6).toStdString();
        const QString code = QString::fromStdString(section(text.toStdString(), "paddle"));
        const ModelRun model = modelRun(Framework::Paddle, shape, expr);
        if (code.startsWith(QStringLiteral("(no code"))) {
            QVERIFY(model.outcome.kind == FrameworkOutcome::Kind::NotModelled);
            return;
        }
        // An index outside its dimension still translates, but Paddle's answer is undefined.
        if (model.outcome.kind == FrameworkOutcome::Kind::NotModelled) return;
        Tensor y = iota(shape, 0, DType::Int64);
        static const QRegularExpression slice(
            QStringLiteral("strided_slice\\(x, axes=(\\[[^\\]]*\\]), starts=(\\[[^\\]]*\\]), "
                           "ends=(\\[[^\\]]*\\]), strides=(\\[[^\\]]*\\])\\)"));
        if (const auto m = slice.match(code); m.hasMatch()) {
            try {
                const OpRun run = runOp("paddle_strided_slice", {{y}},
                                        {{"axes", Attr::ints(parseInts(m.captured(1)))},
                                         {"starts", Attr::ints(parseInts(m.captured(2)))},
                                         {"ends", Attr::ints(parseInts(m.captured(3)))},
                                         {"strides", Attr::ints(parseInts(m.captured(4)))}});
                y = run.outputs[0];
            } catch (const OpError& e) {
                QVERIFY(model.outcome.kind == FrameworkOutcome::Kind::Error);
                QCOMPARE(std::string(e.what()), model.outcome.message);
                return;
            }
        }
        Shape s = y.shape();
        static const QRegularExpression squeeze(
            QStringLiteral("(?<!un)squeeze\\(y, axis=(\\[[^\\]]*\\])\\)"));
        static const QRegularExpression unsqueeze(
            QStringLiteral("unsqueeze\\([xy], axis=(\\[[^\\]]*\\])\\)"));
        if (const auto m = squeeze.match(code); m.hasMatch()) {
            const auto axes = parseInts(m.captured(1));
            Shape kept;
            for (std::size_t k = 0; k < s.size(); ++k)
                if (std::find(axes.begin(), axes.end(), std::int64_t(k)) == axes.end() || s[k] != 1)
                    kept.push_back(s[k]);
            s = kept;
        }
        if (const auto m = unsqueeze.match(code); m.hasMatch())
            for (std::int64_t a : parseInts(m.captured(1)))
                s.insert(s.begin() + a, 1);
        QVERIFY(model.outcome.kind == FrameworkOutcome::Kind::Result);
        QCOMPARE(s, model.shape);
        QCOMPARE(values(y), model.values);
    }

    // The lax line of the JAX code, run with lax.slice/rev/squeeze/expand_dims written in NumPy
    // (lax.slice refusing what its shape rule refuses), gives the JAX model's result.
    void jaxLaxCodeRunsAsTheModel()
    {
        const QStringList files =
            QDir(goldenDir()).entryList({QStringLiteral("*.txt")}, QDir::Files, QDir::Name);
        std::vector<std::pair<Shape, std::string>> cases;
        std::vector<ModelRun> models;
        for (const QString& f : files) {
            QFile in(goldenDir() + u'/' + f);
            QVERIFY(in.open(QIODevice::ReadOnly));
            const std::string text = in.readAll().toStdString();
            const QStringList head = QString::fromStdString(text).split(u'\n');
            const Shape shape = parseShape(head[0].mid(7));
            const std::string code = section(text, "jax");
            const auto at = code.find("y_lax = ");
            if (at == std::string::npos) continue;
            cases.emplace_back(shape, code.substr(at, code.find('\n', at) - at));
            models.push_back(modelRun(Framework::Jax, shape, head[1].mid(6).toStdString()));
        }
        QVERIFY(cases.size() >= 5);
        const char* const fakeLax = R"PY(
import types
def _slice(x, start, limit, strides):
    if any(s < 0 for s in start) or any(l < s for s, l in zip(start, limit)) \
            or any(l > d for l, d in zip(limit, x.shape)) or any(s <= 0 for s in strides):
        raise TypeError('lax.slice refuses these arguments')
    return x[tuple(slice(s, l, st) for s, l, st in zip(start, limit, strides))]
lax = types.SimpleNamespace(
    slice=_slice,
    rev=lambda x, dims: np.flip(x, dims),
    squeeze=lambda x, dims: np.squeeze(x, tuple(dims)),
    expand_dims=lambda x, dims: np.expand_dims(x, tuple(dims)))
import builtins
builtins.lax = lax
)PY";
        const auto runs = runCodeBatch("numpy", cases, fakeLax);
        for (std::size_t k = 0; k < cases.size(); ++k) {
            QVERIFY2(runs[k].ok, (cases[k].second + ": " + runs[k].message).c_str());
            QCOMPARE(runs[k].shape, models[k].shape);
            QCOMPARE(runs[k].values, models[k].values);
        }
    }
};

QTEST_APPLESS_MAIN(TestFrameworkCode)
#include "tst_framework_code.moc"
