// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: any bytes as a .npy file. Reading must return a tensor or throw OpError, and a
// tensor it returns must survive writing and reading again unchanged.
#include "core/error.h"
#include "protocol/npy.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    ss::Limits limits = ss::Limits::machineDefault();
    limits.maxElements = 1 << 16;
    ss::Tensor t;
    try {
        t = ss::readNpyBytes(std::string_view(reinterpret_cast<const char*>(data), size), limits);
    } catch (const ss::OpError&) {
        return 0;
    }
    const ss::Tensor back = ss::readNpyBytes(ss::encodeNpy(t), limits);
    // NaN payloads survive too: .npy stores raw bits.
    if (!back.identical(t)) std::abort();
    return 0;
}
