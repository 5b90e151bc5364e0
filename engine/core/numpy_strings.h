// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How NumPy types a string tensor: bytes ('S') or text ('U', Tensor::holdsBytes), as long as
// its longest element. The .npy writer, Copy as NumPy, the frameworks' NumPy code and the
// input's element type box all say it this way.

#include "core/tensor.h"

#include <cstdint>
#include <string>

namespace ss {

/// The length NumPy gives a string tensor's elements: the bytes ('S') or code points ('U') of
/// its longest element, and at least `atLeast` (1, as NumPy's; or the length of the file the
/// strings came from).
std::int64_t numpyStringLength(const Tensor& t, std::int64_t atLeast = 1);

/// NumPy's type string of a string tensor, as np.save writes it and its repr prints it: "|S5"
/// for bytes, "<U3" for text (numpyStringLength long).
std::string numpyStringDescr(const Tensor& t, std::int64_t atLeast = 1);

} // namespace ss
