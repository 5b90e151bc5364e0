// SPDX-License-Identifier: GPL-3.0-or-later
// Copy as code (runnableCode) for every framework and every dtype: the code spells each dtype
// as the library version its model names has it, or says in a comment why it holds the values
// in another type (NumPy has no bfloat16; PyTorch 1.13 no uint16/32/64), or is refused with a
// reason where the framework cannot hold them at all. Then the NumPy and PyTorch snippets run in
// Debian's /usr/bin/python3 (NumPy 1.24, PyTorch 1.13), one process per library, for every
// dtype, arange-filled and with each type's edge values written out: the result has the
// engine's bytes, bit for bit.
#include "core/frameworks/code_snippet.h"
#include "core/op.h"
#include "framework_oracle.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <limits>

using namespace ss;
using namespace ss::testing;

namespace {

const char* const kExpr = "x[1:, ::-1]";

/// Each dtype's edges: signs, extremes, fractions, -0 and infinity, written out as (2, 3).
Tensor edgeValues(DType dtype)
{
    Tensor t = Tensor::zeros(dtype, {2, 3});
    const double inf = std::numeric_limits<double>::infinity();
    switch (dtype) {
    case DType::Bool:
        for (std::int64_t i : {0, 2, 5})
            t.setFromInt(i, 1);
        break;
    case DType::String: {
        const char* const words[] = {"a", "it's", "", "\xff", "x y", "z"};
        for (int i = 0; i < 6; ++i)
            t.data<std::string>()[i] = words[i];
        break;
    }
    case DType::UInt64: {
        const std::uint64_t v[] = {
            0, ~std::uint64_t(0), 1, std::uint64_t(1) << 63, std::uint64_t(1) << 40, 9};
        for (int i = 0; i < 6; ++i)
            t.data<std::uint64_t>()[i] = v[i];
        break;
    }
    case DType::Float16: {
        const double v[] = {-1.5, 0.1, 65504, -0.0, inf, 6e-8};
        for (int i = 0; i < 6; ++i)
            t.setFromDouble(i, v[i]);
        break;
    }
    case DType::BFloat16: {
        const double v[] = {-1.5, 0.1, 3e38, -0.0, -inf, 1e-3};
        for (int i = 0; i < 6; ++i)
            t.setFromDouble(i, v[i]);
        break;
    }
    case DType::Float32:
    case DType::Float64: {
        const bool f32 = dtype == DType::Float32;
        const double v[] = {-1.5, 0.1, f32 ? 3.4e38 : 1.7e308, -0.0, inf, f32 ? 1e-45 : 5e-324};
        for (int i = 0; i < 6; ++i)
            t.setFromDouble(i, v[i]);
        break;
    }
    case DType::Complex64:
    case DType::Complex128: {
        const std::complex<double> v[] = {{1, 2}, {-0.5, -0.25}, {3e10, -1},
                                          {0, 0}, {0, 1},        {-7, 0}};
        for (int i = 0; i < 6; ++i)
            t.setFromComplex(i, v[i]);
        break;
    }
    default: { // the other integers: their extremes
        const std::int64_t v[] = {
            integerMin(dtype), integerMax(dtype), isUnsigned(dtype) ? 1 : -1, 0, 5, 9};
        for (int i = 0; i < 6; ++i)
            t.setFromInt(i, v[i]);
        break;
    }
    }
    return t;
}

SnippetInput inputFor(DType dtype, bool written)
{
    SnippetInput in;
    in.dtype = dtype;
    in.shape = {2, 3};
    in.fill = Fill::Arange;
    if (written) in.values = edgeValues(dtype);
    return in;
}

std::string snippet(Framework f, DType dtype, bool written)
{
    return runnableCode(f, *findOp("getitem"), {{inputFor(dtype, written)}},
                        {{"expr", Attr(std::string(kExpr))}});
}

bool mentions(const std::string& code, const char* pattern)
{
    return QRegularExpression(QString::fromLatin1(pattern))
        .match(QString::fromStdString(code))
        .hasMatch();
}

QByteArray bytesOf(const Tensor& t)
{
    return QByteArray(static_cast<const char*>(t.raw()),
                      qsizetype(t.size()) * dtypeSize(t.dtype()));
}

/// The type PyTorch 1.13 code holds `dtype` in (it has no uint16/32/64).
DType torchHeldAs(DType dtype)
{
    if (dtype == DType::UInt16) return DType::Int32;
    if (dtype == DType::UInt32 || dtype == DType::UInt64) return DType::Int64;
    return dtype;
}

} // namespace

class TestSnippetDTypes : public QObject
{
    Q_OBJECT

private slots:
    void everyFrameworkHoldsEveryDType_data()
    {
        QTest::addColumn<int>("framework");
        QTest::addColumn<int>("dtype");
        QTest::addColumn<bool>("written");
        for (const FrameworkModel* m : frameworkModels())
            for (DType d : kAllDTypes)
                for (bool written : {false, true})
                    QTest::addRow("%s %s %s", std::string(m->key()).c_str(), dtypeName(d).data(),
                                  written ? "written" : "arange")
                        << int(m->id()) << int(d) << written;
    }
    void everyFrameworkHoldsEveryDType()
    {
        QFETCH(int, framework);
        QFETCH(int, dtype);
        QFETCH(bool, written);
        const auto f = Framework(framework);
        const auto d = DType(dtype);
        const std::string name(dtypeName(d));
        const bool unsigned16to64 = d == DType::UInt16 || d == DType::UInt32 || d == DType::UInt64;
        // Where the framework cannot hold the dtype at all, the refusal says which and why.
        const bool refused =
            (d == DType::String &&
             (f == Framework::PyTorch || f == Framework::Jax || f == Framework::Paddle)) ||
            (f == Framework::Paddle && unsigned16to64) ||
            (f == Framework::Onnx && d == DType::BFloat16);
        std::string code;
        try {
            code = snippet(f, d, written);
        } catch (const OpError& e) {
            QVERIFY2(refused, e.what());
            QCOMPARE(e.code(), ErrorCode::InvalidArgument);
            const QString why = QString::fromUtf8(e.what());
            QVERIFY2(why.contains(QString::fromStdString(name)) || why.contains("strings"),
                     e.what());
            QVERIFY2(why.contains(QString::fromLatin1(frameworkModel(f).title().data())), e.what());
            return;
        }
        QVERIFY2(!refused, code.c_str());
        QVERIFY2(code.find("\ny = ") != std::string::npos || f == Framework::Onnx, code.c_str());
        switch (f) {
        case Framework::NumPy:
        case Framework::Onnx:
            // NumPy has no bfloat16: never np.bfloat16; ml_dtypes' is named, and why.
            QVERIFY2(!mentions(code, R"((?<![\w.])np\.bfloat16)"), code.c_str());
            if (d == DType::BFloat16) {
                QVERIFY2(mentions(code, "# NumPy has no bfloat16: ml_dtypes\\.bfloat16"),
                         code.c_str());
                QVERIFY2(mentions(code, "from ml_dtypes import bfloat16"), code.c_str());
            }
            break;
        case Framework::PyTorch:
            QVERIFY2(!mentions(code, R"(torch\.uint(16|32|64))") ||
                         mentions(code, R"(# PyTorch 1\.13 has no torch\.uint)"),
                     code.c_str());
            QVERIFY2(!mentions(code, R"(dtype=torch\.uint(16|32|64))"), code.c_str());
            if (unsigned16to64)
                QVERIFY2(mentions(code, qPrintable(QStringLiteral("(?s)# PyTorch 1\\.13 has no "
                                                                  "torch\\.%1 .*held as torch\\.")
                                                       .arg(QString::fromStdString(name)))),
                         code.c_str());
            break;
        case Framework::Jax:
            // Without x64, JAX makes 64-bit types 32-bit without a word.
            QCOMPARE(mentions(code, R"(jax\.config\.update\("jax_enable_x64", True\))"),
                     dtypeSize(d) >= 8 && d != DType::Complex64 && d != DType::String);
            break;
        case Framework::Paddle:
            QVERIFY2(mentions(code, R"(dtype="(bool|u?int8|int(16|32|64)|b?float16|float(32|64)|)"
                                    R"(complex(64|128))\"\))"),
                     code.c_str());
            break;
        case Framework::TensorFlow:
            // tf.range makes int32, int64, float32 and float64 in every TensorFlow version;
            // the others are cast.
            if (!written && d != DType::Bool && d != DType::String)
                QCOMPARE(mentions(code, R"(tf\.range\(6, dtype=)"),
                         d == DType::Int32 || d == DType::Int64 || d == DType::Float32 ||
                             d == DType::Float64);
            break;
        }
    }

    // The NumPy and PyTorch snippets, run: the engine's result, bit for bit, in the type the
    // code holds it in.
    void numpyAndTorchGiveTheEnginesBits_data()
    {
        QTest::addColumn<int>("framework");
        QTest::newRow("NumPy 1.24") << int(Framework::NumPy);
        QTest::newRow("PyTorch 1.13") << int(Framework::PyTorch);
    }
    void numpyAndTorchGiveTheEnginesBits()
    {
        QFETCH(int, framework);
        const auto f = Framework(framework);
        struct Case
        {
            DType dtype;
            bool written;
            std::string code;
            Tensor expected;
        };
        std::vector<Case> cases;
        QByteArray batch;
        for (DType d : kAllDTypes) {
            if (d == DType::String) continue; // strings: tst_framework_code
            for (bool written : {false, true}) {
                const SnippetInput in = inputFor(d, written);
                const Tensor x =
                    written ? *in.values
                            : makeFilled(d, in.shape, Fill::Arange, 0, Limits::machineDefault());
                const Tensor y =
                    runOp("getitem", {{x}}, {{"expr", Attr(std::string(kExpr))}}).outputs.at(0);
                Case c{d, written, snippet(f, d, written), y};
                std::string flat = c.code;
                for (char& ch : flat)
                    if (ch == '\n') ch = '\x1f';
                batch +=
                    QByteArray(dtypeName(d).data()) + '\t' + QByteArray::fromStdString(flat) + '\n';
                cases.push_back(std::move(c));
            }
        }
        // Runs each snippet; prints the type y is held in, its shape and its bytes in the
        // snippet's dtype (a held type converted back: same values, or the same 64 bits).
        const char* const script = R"PY(
import sys
import numpy as np
LIB = sys.argv[1]
if LIB == 'torch':
    import torch
out = []
for line in sys.stdin.read().split('\n'):
    if not line:
        continue
    dtype, code = line.split('\t', 1)
    try:
        ns = {}
        exec(code.replace('\x1f', '\n'), ns)
        y = ns['y']
        if LIB == 'torch':
            if y.dtype == torch.bfloat16:
                held, a = 'bfloat16', y.contiguous().view(torch.int16).numpy().view(np.uint16)
            else:
                a = y.contiguous().numpy()
                held = a.dtype.name
        else:
            a = np.ascontiguousarray(y)
            held = a.dtype.name
            if held == 'bfloat16':  # ml_dtypes
                a = a.view(np.uint16)
        if dtype == 'bfloat16' and held == 'float32':  # NumPy without ml_dtypes
            bits = a.view(np.uint32)
            assert not (bits & 0xFFFF).any(), 'float32 values that are not bfloat16'
            a = (bits >> 16).astype(np.uint16)
        elif dtype != 'bfloat16':
            a = a.astype(dtype)
        out.append('ok\t' + held + '\t' + ','.join(map(str, a.shape)) + '\t' + a.tobytes().hex())
    except Exception as e:
        msg = str(e).replace('\n', ' ').replace('\t', ' ')
        out.append('err\t' + type(e).__name__ + '\t' + msg + '\t')
sys.stdout.write('\n'.join(out) + '\n')
)PY";
        QProcess p;
        p.start(numpyPython(),
                {QStringLiteral("-c"), QString::fromLatin1(script),
                 f == Framework::PyTorch ? QStringLiteral("torch") : QStringLiteral("numpy")});
        QVERIFY(p.waitForStarted(10000));
        p.write(batch);
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(240000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const QList<QByteArray> lines = p.readAllStandardOutput().split('\n');
        QVERIFY(lines.size() >= qsizetype(cases.size()));
        for (std::size_t k = 0; k < cases.size(); ++k) {
            const Case& c = cases[k];
            const QList<QByteArray> fields = lines[qsizetype(k)].split('\t');
            QCOMPARE(fields.size(), 4);
            const std::string what = std::string(dtypeName(c.dtype)) +
                                     (c.written ? " written" : " arange") + ":\n" + c.code + "-> " +
                                     lines[qsizetype(k)].toStdString();
            QVERIFY2(fields[0] == "ok", what.c_str());
            // The type the values are held in: the dtype, or what the code says stands in.
            const QByteArray held = fields[1];
            if (f == Framework::PyTorch)
                QVERIFY2(held == dtypeName(torchHeldAs(c.dtype)).data(), what.c_str());
            else if (c.dtype == DType::BFloat16)
                QVERIFY2(held == "bfloat16" || held == "float32", what.c_str());
            else
                QVERIFY2(held == dtypeName(c.dtype).data(), what.c_str());
            QVERIFY2(fields[2] == "1,3", what.c_str());
            QVERIFY2(fields[3] == bytesOf(c.expected).toHex(), what.c_str());
        }
        qInfo("%zu snippets run, every dtype but string", cases.size());
    }
};

QTEST_APPLESS_MAIN(TestSnippetDTypes)
#include "tst_snippet_dtypes.moc"
