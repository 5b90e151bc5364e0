// SPDX-License-Identifier: GPL-3.0-or-later
// Tensor buffers are kept for reuse (tensor.cpp's pool): small ones as well as large ones, so a
// repeated small result does not fault in fresh pages each time, and the pool stays bounded.
// Large buffers are reused across sizes (a smaller request takes a kept buffer up to twice its
// size, a bigger one grows a kept buffer), so edits whose outputs change size stop faulting in
// fresh memory.
#include "core/tensor.h"

#include <QTest>

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace ss;

class TestTensorBuffers : public QObject
{
    Q_OBJECT

private slots:
    void init() { releasePooledBuffers(); }
    void cleanup() { keepPooledBuffers(2, std::int64_t(512) << 20); } // the defaults

    static Tensor megabytes(std::int64_t mib) { return Tensor::empty(DType::Int8, {mib << 20}); }

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

    // The workbench prepares the next edit's output buffer on a worker: its pages are in memory
    // before a tensor takes it, and a kept buffer that would do is not doubled.
    void aPreparedBufferIsInMemory()
    {
        QVERIFY(!prepareReusableBuffer(std::int64_t(1) << 20)); // small buffers: never
        QVERIFY(prepareReusableBuffer(std::int64_t(40) << 20));
        QVERIFY(!prepareReusableBuffer(std::int64_t(40) << 20)); // one is kept
        QVERIFY(!prepareReusableBuffer(std::int64_t(24) << 20)); // it takes a smaller one too
        const Tensor t = megabytes(40);
        const std::size_t pages = std::size_t(40) << 8;
        std::vector<unsigned char> resident(pages);
        QCOMPARE(mincore(const_cast<void*>(t.raw()), pages * 4096, resident.data()), 0);
        QCOMPARE(std::size_t(std::count(resident.begin(), resident.end(), 0)), std::size_t(0));
        QCOMPARE(releasePooledBuffers(), 0); // the tensor took the prepared buffer
        // A smaller kept buffer is grown to the size, its pages too.
        {
            const Tensor small = megabytes(16);
        }
        QVERIFY(prepareReusableBuffer(std::int64_t(40) << 20));
        QCOMPARE(releasePooledBuffers(), std::int64_t(40) << 20);
    }

    // A tensor asking for a buffer while the next one is being prepared takes that one, as far as
    // it was prepared, instead of mapping one more beside it (the workbench prepares the next
    // edit's output while the window is idle; an edit may come meanwhile). The preparation is held
    // at its first page until the tensor has been asked for: the tensor must wait for it.
    void aTensorTakesTheBufferBeingPrepared()
    {
        std::mutex mutex;
        std::condition_variable changed;
        bool preparing = false, tensorMade = false, goOn = false;
        auto wait = [&](const bool& flag) {
            std::unique_lock lock(mutex);
            return changed.wait_for(lock, std::chrono::milliseconds(300), [&] { return flag; });
        };
        auto set = [&](bool& flag) {
            std::lock_guard lock(mutex);
            flag = true;
            changed.notify_all();
        };
        std::thread preparer([&] {
            prepareReusableBuffer(std::int64_t(40) << 20, [&] {
                set(preparing);
                std::unique_lock lock(mutex);
                changed.wait(lock, [&] { return goOn; });
                return false;
            });
        });
        QVERIFY(wait(preparing));
        Tensor t;
        std::thread asker([&] {
            t = megabytes(40);
            set(tensorMade);
        });
        const bool madeAtOnce = wait(tensorMade);
        set(goOn);
        asker.join();
        preparer.join();
        QVERIFY2(!madeAtOnce, "the tensor did not wait for the buffer being prepared");
        QCOMPARE(releasePooledBuffers(), 0); // no buffer kept beside the tensor's
        std::vector<unsigned char> resident(1);
        QCOMPARE(mincore(const_cast<void*>(t.raw()), 4096, resident.data()), 0);
        QVERIFY(resident[0] & 1); // the prepared page
        std::memset(t.raw(), 1, std::size_t(t.size()));
        QCOMPARE(t.data<std::int8_t>()[t.size() - 1], std::int8_t(1));
    }

    // A preparation told to stop keeps its buffer as far as it got: the next tensor of the size
    // takes it (the rest of its pages fault in as it writes them).
    void aStoppedPreparationKeepsItsBuffer()
    {
        int pages = 0;
        QVERIFY(prepareReusableBuffer(std::int64_t(40) << 20, [&pages] { return ++pages > 3; }));
        QCOMPARE(pages, 4);
        QCOMPARE(releasePooledBuffers(), std::int64_t(40) << 20);
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

    // x[::2, :] after x[::-1, 1:]: half the output takes the kept full-size buffer.
    void aSmallerRequestTakesAKeptBuffer()
    {
        const void* first = nullptr;
        {
            const Tensor t = megabytes(40);
            first = t.raw();
        }
        const Tensor t = megabytes(24);
        QCOMPARE(t.raw(), first);
        QCOMPARE(releasePooledBuffers(), 0);
    }

    // A buffer over twice the request stays kept for its own size: lent to a small tensor, it
    // could not go back when the big tensors are gone.
    void aMuchBiggerBufferIsNotLent()
    {
        const void* big = nullptr;
        {
            const Tensor t = megabytes(64);
            big = t.raw();
        }
        const Tensor t = megabytes(16);
        QVERIFY(t.raw() != big);
        QCOMPARE(releasePooledBuffers(), std::int64_t(64) << 20);
    }

    // A request bigger than every kept buffer grows one (its pages move with it) instead of
    // mapping the whole size afresh; all of it is usable.
    void aBiggerRequestGrowsAKeptBuffer()
    {
        {
            Tensor t = megabytes(16);
            std::memset(t.raw(), 7, std::size_t(t.size()));
        }
        Tensor t = megabytes(24);
        QCOMPARE(releasePooledBuffers(), 0);
        auto* bytes = t.data<std::int8_t>();
        std::memset(bytes, 1, std::size_t(t.size()));
        QCOMPARE(bytes[0], std::int8_t(1));
        QCOMPARE(bytes[t.size() - 1], std::int8_t(1));
    }

    // The workbench's edits, each output made while the previous one is still shown, sizes
    // alternating as in bench_gui (full, full, half, half, ...): after the first two, no edit
    // needs a new buffer. (An exact-size pool of two missed whenever the size changed.)
    void alternatingSizesKeepTheirBuffers()
    {
        const std::int64_t sizes[] = {40, 40, 24, 24, 40, 40, 24, 40, 24, 24};
        std::set<const void*> seen;
        Tensor shown;
        int fresh = 0;
        for (std::int64_t mib : sizes) {
            Tensor next = megabytes(mib);
            if (seen.insert(next.raw()).second) ++fresh;
            shown = next; // the previous output is freed once the new one is shown
        }
        QCOMPARE(fresh, 2);
    }

    // A fresh large buffer starts on a 2 MiB boundary and is advised to take transparent huge
    // pages: each of its 4 KiB pages would fault on its own otherwise, and under a
    // paravirtualised MMU a fault costs about 20 us (a fresh 256 MiB output: 1.1-1.5 s of CPU
    // with small pages, 0.24-0.7 s with huge ones). The advice shows as "hg" in the mapping's
    // VmFlags (proc(5)), whatever the system's THP setting.
    void aFreshLargeBufferAsksForHugePages()
    {
        const Tensor t = megabytes(24);
        const auto address = reinterpret_cast<std::uintptr_t>(t.raw());
        QCOMPARE(address % (std::uintptr_t(2) << 20), std::uintptr_t(0));
        std::ifstream smaps("/proc/self/smaps");
        QVERIFY(smaps);
        std::string line;
        bool inside = false;
        std::string flags;
        while (std::getline(smaps, line)) {
            std::uintptr_t begin = 0;
            std::uintptr_t end = 0;
            char dash = 0;
            std::istringstream range(line);
            if (range >> std::hex >> begin >> dash >> end && dash == '-') {
                inside = address >= begin && address < end;
                continue;
            }
            if (inside && line.rfind("VmFlags:", 0) == 0) flags = line;
        }
        QVERIFY2(!flags.empty(), "the buffer's mapping is not in /proc/self/smaps");
        QVERIFY2((flags + " ").find(" hg ") != std::string::npos, flags.c_str());
    }

    // keepPooledBuffers() bounds the large buffers kept, by count and by bytes.
    void theLargeListIsBounded()
    {
        keepPooledBuffers(1, std::int64_t(64) << 20);
        {
            const Tensor a = megabytes(16);
            const Tensor b = megabytes(17);
        }
        QCOMPARE(releasePooledBuffers(), std::int64_t(16) << 20); // freed last: a
        keepPooledBuffers(4, std::int64_t(40) << 20);
        {
            const Tensor a = megabytes(16);
            const Tensor b = megabytes(17);
            const Tensor c = megabytes(18);
        }
        // Freed c, b, a: a and b fit 40 MiB; c went first.
        QCOMPARE(releasePooledBuffers(), std::int64_t(33) << 20);
        keepPooledBuffers(0, std::int64_t(1) << 30);
        {
            const Tensor a = megabytes(16);
        }
        QCOMPARE(releasePooledBuffers(), 0);
    }
};

QTEST_APPLESS_MAIN(TestTensorBuffers)
#include "tst_tensor_buffers.moc"
