// SPDX-License-Identifier: GPL-3.0-or-later
// makeFilled on an executor: every worker fills a range (the first touch of a fresh buffer is
// the cost), and the values are the same as filled in order, random ones included (each range
// starts the generator where the sequence is at its first element).
#include "core/executor.h"
#include "core/tensor.h"

#include <QTest>

using namespace ss;

namespace {
// The protocol's random fill, written out: splitmix64, element i from its (i + 1)-th value.
float referenceRandomFloat(std::uint64_t seed, std::int64_t i)
{
    std::uint64_t z = seed + std::uint64_t(i + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return float(double(z >> 11) * 0x1.0p-53);
}
} // namespace

class TestMakeFilled : public QObject
{
    Q_OBJECT

private slots:
    void parallelIsTheSameAsInOrder_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<int>("fill");
        for (DType dtype : {DType::Bool, DType::Int8, DType::Int16, DType::Int32, DType::Int64,
                            DType::Float32, DType::Float64, DType::UInt8})
            for (Fill fill : {Fill::Arange, Fill::Zeros, Fill::Ones, Fill::Random})
                QTest::addRow("%s %s", std::string(dtypeName(dtype)).c_str(),
                              std::string(fillName(fill)).c_str())
                    << int(dtype) << int(fill);
    }

    // Over a few ranges of the executor's grain, with a length that is no multiple of it.
    void parallelIsTheSameAsInOrder()
    {
        QFETCH(int, dtype);
        QFETCH(int, fill);
        Executor executor(3);
        const Shape shape{7, 50001};
        const Tensor inOrder = makeFilled(DType(dtype), shape, Fill(fill), 11, Limits{});
        const Tensor parallel =
            makeFilled(DType(dtype), shape, Fill(fill), 11, Limits{}, &executor);
        QVERIFY(parallel.identical(inOrder));
    }

    void randomFollowsTheGenerator()
    {
        Executor executor(2);
        const Tensor t = makeFilled(DType::Float32, {300000}, Fill::Random, 5, Limits{}, &executor);
        for (std::int64_t i = 0; i < t.size(); ++i)
            if (t.data<float>()[i] != referenceRandomFloat(5, i))
                QFAIL(("element " + std::to_string(i) + " differs").c_str());
    }

    // Strings are made in order; the executor changes nothing.
    void stringsWithAnExecutor()
    {
        Executor executor(2);
        const Tensor t = makeFilled(DType::String, {3}, Fill::Arange, 0, Limits{}, &executor);
        QCOMPARE(t.data<std::string>()[2], std::string("2"));
    }
};

QTEST_APPLESS_MAIN(TestMakeFilled)
#include "tst_make_filled.moc"
