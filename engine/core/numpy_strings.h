// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How NumPy types a string tensor: bytes ('S') or text ('U', Tensor::holdsBytes), as long as
// the file it came from said (Tensor::itemLength) or as its longest element if that is longer.
// The .npy writer, Copy as NumPy, the frameworks' NumPy code and the input's element type box
// all say it this way.

#include "core/tensor.h"

#include <cstdint>
#include <string>

namespace ss {

/// The most bytes NumPy's string element may hold (its item size is a C int): 'S' elements of
/// this many bytes, 'U' elements of a quarter as many code points.
inline constexpr std::int64_t kMaxNumpyItemBytes = 2147483647;

/// The length NumPy gives a string tensor's elements, in bytes ('S') or code points ('U'): its
/// item length (the file's, Tensor::itemLength), or its longest element's if that is longer (a
/// longer string typed into a `|S5` cell makes it `|S7`: NumPy would cut the string to 5
/// bytes, which a tool for learning must not do unseen). Without an item length (a tensor no
/// file typed) it is at least 1, as NumPy makes `np.array([b''])` '|S1'; a file's '|S0' or
/// '<U0' of empty strings stays 0, as NumPy reads and writes it back.
std::int64_t numpyStringLength(const Tensor& t);

/// NumPy's type string of a string tensor, as np.save writes it and its repr prints it: "|S5"
/// for bytes, "<U3" for text (numpyStringLength long).
std::string numpyStringDescr(const Tensor& t);

} // namespace ss
