// SPDX-License-Identifier: GPL-3.0-or-later
// A tensor written as NumPy code that makes it again (Ctrl+C on a tensor view): the values
// nested as NumPy prints them, with the dtype, so that pasting into Python gives the same array.
#pragma once

#include "core/tensor.h"

#include <QString>

namespace ss::ui {

/// The most elements a literal is written for: beyond it the text is too long to paste
/// usefully (File > Export Output as .npy writes any size). Also the default heat-map
/// threshold: a face drawn as cells can be copied whole.
constexpr std::int64_t kNumpyLiteralLimit = 10000;

/// "np.array([[0, 1, 2],\n          [3, 4, 5]], dtype=np.int32)"; an empty tensor is
/// "np.empty((0, 3), dtype=np.int32)". Floats are written shortest-exact (np.nan, np.inf for the
/// special values), strings as NumPy's repr writes them: np.array([b'ab'], dtype='|S2') for a
/// tensor that holds bytes, np.array(['ab'], dtype='<U2') for text. NumPy has no bfloat16: a
/// bfloat16 tensor's text starts with the lines that say so and bind `bfloat16`
/// (ml_dtypes.bfloat16, else float32: numpyBFloat16Prelude). The caller checks the size against
/// kNumpyLiteralLimit.
QString numpyLiteral(const Tensor& tensor);

} // namespace ss::ui
