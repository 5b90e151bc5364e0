// SPDX-License-Identifier: GPL-3.0-or-later
// The copy engine's paths for outputs larger than the caches (huge-page outputs, transposes in
// register blocks with streaming stores, batched short runs) only run on big tensors, so they
// are checked here against NumPy on tensors of 4M-8M elements: same shape and the protocol's
// checksum of every element. runOp also checks each element against the source its plan names.
#include "../engine/numpy_oracle.h"
#include "../engine/op_runner.h"

#include <QTest>

using namespace ss;
using namespace ss::testing;

namespace {

// Reads lines "dtype;shape;shape...<TAB>expression" (the inputs x, y, ... in order, plus idx:
// int32 (i * 7919) % rows when the expression uses it) and prints "shape<TAB>checksum".
const char* const kNumpyScript = R"PY(
import sys
import numpy as np
WIDTH = {'float32': np.uint32, 'int64': np.uint64, 'int16': np.uint16}
def make(shape, dtype, k):
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == 'float32':
        return (np.arange(n, dtype=np.uint32) + np.uint32(k << 28)).view(np.float32).reshape(shape)
    return (np.arange(n, dtype=np.int64) + k * 1000003).astype(dtype).reshape(shape)
def checksum(a):
    bits = np.ascontiguousarray(a).reshape(-1).view(WIDTH[a.dtype.name]).astype(np.uint64)
    weight = np.arange(bits.size, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    return int(np.sum(bits * weight, dtype=np.uint64))
for line in sys.stdin.read().split('\n'):
    if not line:
        continue
    spec, expr = line.split('\t')
    dtype, *shapes = spec.split(';')
    ns = {'np': np}
    for k, s in enumerate(shapes):
        ns['xyzw'[k]] = make(tuple(int(d) for d in s.split(',')), dtype, k)
    rows = ns['x'].shape[0]
    ns['idx'] = (np.arange(rows // 2, dtype=np.int64) * 7919 % rows).astype(np.int32)
    y = eval(expr, ns)
    print(','.join(map(str, y.shape)) + '\t' + str(checksum(y)))
)PY";

struct Case
{
    const char* name;
    DType dtype;
    std::vector<Shape> inputs; // x, y, ...: as a list input for concat, else one tensor each
    const char* op;
    Attrs attrs;
    const char* numpy;
};

Attr pairs(std::vector<std::vector<std::int64_t>> rows)
{
    Attr::List list;
    for (const auto& r : rows)
        list.push_back(Attr::ints(r));
    return Attr(list);
}

const std::vector<Case>& cases()
{
    static const std::vector<Case> all = {
        {"transpose float32 2048x2048 (streamed)",
         DType::Float32,
         {{2048, 2048}},
         "transpose",
         {{"perm", Attr::ints({1, 0})}},
         "np.ascontiguousarray(x.T)"},
        {"transpose float32 2047x2053 (unaligned rows)",
         DType::Float32,
         {{2047, 2053}},
         "transpose",
         {{"perm", Attr::ints({1, 0})}},
         "np.ascontiguousarray(x.T)"},
        {"transpose int64 1024x2048 (streamed)",
         DType::Int64,
         {{1024, 2048}},
         "transpose",
         {{"perm", Attr::ints({1, 0})}},
         "np.ascontiguousarray(x.T)"},
        {"transpose int64 1023x2049 (unaligned rows)",
         DType::Int64,
         {{1023, 2049}},
         "transpose",
         {{"perm", Attr::ints({1, 0})}},
         "np.ascontiguousarray(x.T)"},
        {"transpose int16 2048x2048 (scalar tiles)",
         DType::Int16,
         {{2048, 2048}},
         "transpose",
         {{"perm", Attr::ints({1, 0})}},
         "np.ascontiguousarray(x.T)"},
        {"transpose float32 64x256x257 (2,0,1)",
         DType::Float32,
         {{64, 256, 257}},
         "transpose",
         {{"perm", Attr::ints({2, 0, 1})}},
         "np.ascontiguousarray(x.transpose(2, 0, 1))"},
        {"transpose float32 8x32x128x128 (0,2,3,1)",
         DType::Float32,
         {{8, 32, 128, 128}},
         "transpose",
         {{"perm", Attr::ints({0, 2, 3, 1})}},
         "np.ascontiguousarray(x.transpose(0, 2, 3, 1))"},
        {"slice float32 x[::-3, 5:-7:2]",
         DType::Float32,
         {{4096, 1024}},
         "getitem",
         {{"expr", Attr("x[::-3, 5:-7:2]")}},
         "x[::-3, 5:-7:2].copy()"},
        {"slice int64 x[..., None, ::-1]",
         DType::Int64,
         {{64, 64, 1024}},
         "getitem",
         {{"expr", Attr("x[..., None, ::-1]")}},
         "x[..., None, ::-1].copy()"},
        {"space_to_batch_nd float32 with padding",
         DType::Float32,
         {{4, 254, 252, 16}},
         "space_to_batch_nd",
         {{"block_shape", Attr::ints({2, 2})}, {"paddings", pairs({{1, 1}, {3, 1}})}},
         "np.ascontiguousarray(np.pad(x, ((0, 0), (1, 1), (3, 1), (0, 0))).reshape(4, 128, 2, 128, "
         "2, 16).transpose(2, 4, 0, 1, 3, 5)).reshape(16, 128, 128, 16)"},
        {"depth_to_space float32, 64-byte runs",
         DType::Float32,
         {{4, 128, 128, 64}},
         "depth_to_space",
         {{"block_size", Attr(2)}},
         "np.ascontiguousarray(x.reshape(4, 128, 128, 2, 2, 16).transpose(0, 1, 3, 2, 4, 5))"
         ".reshape(4, 256, 256, 16)"},
        {"depth_to_space int64, 8-byte runs",
         DType::Int64,
         {{4, 256, 256, 4}},
         "depth_to_space",
         {{"block_size", Attr(2)}},
         "np.ascontiguousarray(x.reshape(4, 256, 256, 2, 2, 1).transpose(0, 1, 3, 2, 4, 5))"
         ".reshape(4, 512, 512, 1)"},
        {"tile float32 by (3,2)",
         DType::Float32,
         {{1024, 1000}},
         "tile",
         {{"multiples", Attr::ints({3, 2})}},
         "np.tile(x, (3, 2))"},
        {"concat float32 on axis 1",
         DType::Float32,
         {{2048, 1000}, {2048, 1048}},
         "concat",
         {{"axis", Attr(1)}},
         "np.concatenate([x, y], axis=1)"},
        {"gather float32 rows",
         DType::Float32,
         {{8192, 512}},
         "gather",
         {{"axis", Attr(0)}},
         "np.take(x, idx, axis=0)"},
        {"pad REFLECT float32",
         DType::Float32,
         {{2000, 2000}},
         "pad",
         {{"paddings", pairs({{5, 7}, {9, 3}})}, {"mode", Attr("REFLECT")}},
         "np.pad(x, ((5, 7), (9, 3)), mode='reflect')"},
    };
    return all;
}

// The same inputs the script makes.
Tensor makeInput(DType dtype, const Shape& shape, int k)
{
    Tensor t = Tensor::empty(dtype, shape);
    for (std::int64_t i = 0; i < t.size(); ++i) {
        if (dtype == DType::Float32)
            t.data<std::uint32_t>()[i] = std::uint32_t(i) + (std::uint32_t(k) << 28);
        else
            t.setFromInt(i, i + k * 1000003);
    }
    return t;
}

std::uint64_t checksum(const Tensor& t)
{
    const int width = dtypeSize(t.dtype());
    std::uint64_t sum = 0;
    for (std::int64_t i = 0; i < t.size(); ++i) {
        std::uint64_t bits = 0;
        std::memcpy(&bits, static_cast<const char*>(t.raw()) + i * width, std::size_t(width));
        sum += bits * (2 * std::uint64_t(i) + 1);
    }
    return sum;
}

QString shapeText(const Shape& s)
{
    QStringList parts;
    for (std::int64_t d : s)
        parts << QString::number(d);
    return parts.join(',');
}

} // namespace

class TestNumpyLarge : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QByteArray batch;
        for (const Case& c : cases()) {
            QStringList spec{QString::fromLatin1(dtypeName(c.dtype).data())};
            for (const Shape& s : c.inputs)
                spec << shapeText(s);
            batch += spec.join(';').toUtf8() + '\t' + c.numpy + '\n';
        }
        m_numpy = runNumpy(QString::fromUtf8(kNumpyScript), batch).split('\n');
    }

    void againstNumpy_data()
    {
        QTest::addColumn<int>("index");
        for (int k = 0; k < int(cases().size()); ++k)
            QTest::newRow(cases()[std::size_t(k)].name) << k;
    }

    void againstNumpy()
    {
        QFETCH(int, index);
        const Case& c = cases()[std::size_t(index)];
        std::vector<Tensor> tensors;
        for (std::size_t k = 0; k < c.inputs.size(); ++k)
            tensors.push_back(makeInput(c.dtype, c.inputs[k], int(k)));
        std::vector<std::vector<Tensor>> inputs;
        if (std::string_view(c.op) == "concat") {
            inputs.push_back(tensors);
        } else {
            inputs.push_back({tensors[0]});
            if (std::string_view(c.op) == "gather") {
                const std::int64_t rows = c.inputs[0][0];
                Tensor idx = Tensor::empty(DType::Int32, {rows / 2});
                for (std::int64_t i = 0; i < idx.size(); ++i)
                    idx.data<std::int32_t>()[i] = std::int32_t(i * 7919 % rows);
                inputs.push_back({idx});
            }
        }
        OpRun run;
        try {
            run = runOp(c.op, inputs, c.attrs);
        } catch (const OpError& e) {
            QFAIL(e.what());
        }
        const QList<QByteArray> numpy = m_numpy.value(index).split('\t');
        QCOMPARE(numpy.size(), 2);
        QCOMPARE(shapeText(run.outputs[0].shape()), QString::fromLatin1(numpy[0]));
        QCOMPARE(checksum(run.outputs[0]), numpy[1].toULongLong());
    }

private:
    QList<QByteArray> m_numpy;
};

QTEST_APPLESS_MAIN(TestNumpyLarge)
#include "tst_numpy_large.moc"
