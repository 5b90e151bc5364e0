// SPDX-License-Identifier: GPL-3.0-or-later
// Tensor buffers are kept for reuse (tensor.cpp's pool): small ones as well as large ones, so a
// repeated small result does not fault in fresh pages each time, and the pool stays bounded.
#include "core/tensor.h"

#include <QTest>

using namespace ss;

class TestTensorBuffers : public QObject
{
    Q_OBJECT

private slots:
    void init() { releasePooledBuffers(); }

    // x[7] of a 64^4 float32 tensor: 1 MiB, under the 8 MiB of large buffers.
    void aSmallBufferIsReused()
    {
        const void* first = nullptr;
        {
            const Tensor t = Tensor::empty(DType::Float32, {64, 64, 64});
            first = t.raw();
        }
        {
            const Tensor t = Tensor::empty(DType::Float32, {64, 64, 64});
            QCOMPARE(t.raw(), first);
        }
        QCOMPARE(releasePooledBuffers(), std::int64_t(1) << 20);
        QCOMPARE(releasePooledBuffers(), 0);
    }

    // Nearly the same size shares a buffer (sizes are rounded to pages).
    void nearlyTheSameSizeShares()
    {
        const void* first = nullptr;
        {
            const Tensor t = Tensor::empty(DType::Int8, {100000});
            first = t.raw();
        }
        const Tensor t = Tensor::empty(DType::Int8, {100001});
        QCOMPARE(t.raw(), first);
    }

    // Tiny buffers stay in malloc's own heap, which keeps their pages.
    void tinyBuffersAreNotKept()
    {
        {
            const Tensor t = Tensor::empty(DType::Float32, {1000});
            QVERIFY(t.raw());
        }
        QCOMPARE(releasePooledBuffers(), 0);
    }

    // Sixteen 3 MiB buffers would be 48 MiB; the small list keeps at most 32 MiB.
    void theSmallListIsBounded()
    {
        {
            std::vector<Tensor> many;
            for (std::int64_t k = 0; k < 16; ++k)
                many.push_back(Tensor::empty(DType::Int8, {(std::int64_t(3) << 20) + k * 4096}));
        }
        const std::int64_t kept = releasePooledBuffers();
        QVERIFY2(kept > 0 && kept <= std::int64_t(32) << 20, std::to_string(kept).c_str());
        // More buffers than slots: at most 16 are kept.
        {
            std::vector<Tensor> many;
            for (std::int64_t k = 0; k < 40; ++k)
                many.push_back(Tensor::empty(DType::Int8, {(std::int64_t(64) << 10) + k * 4096}));
            for (Tensor& t : many)
                t = Tensor(); // freed in order: the last 16 stay
        }
        std::int64_t most = 0;
        for (std::int64_t k = 24; k < 40; ++k)
            most += (std::int64_t(64) << 10) + k * 4096;
        QCOMPARE(releasePooledBuffers(), most);
    }

    // Large buffers keep being reused as before.
    void aLargeBufferIsReused()
    {
        const void* first = nullptr;
        {
            const Tensor t = Tensor::empty(DType::Float32, {4096, 1024});
            first = t.raw();
        }
        const Tensor t = Tensor::empty(DType::Float32, {4096, 1024});
        QCOMPARE(t.raw(), first);
    }
};

QTEST_APPLESS_MAIN(TestTensorBuffers)
#include "tst_tensor_buffers.moc"
