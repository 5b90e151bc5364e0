// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The TFLite reader's op table (tflite_ops.cpp): the builtin operators of the slicing family,
// their options and their translations. Only the reader (tflite_reader.cpp) includes this.

#include "model/model_graph.h"
#include "tflite_schema_generated.h"

#include <string>
#include <vector>

namespace ss::model {

/// The family operator of builtin code `code` ("STRIDED_SLICE"), or null.
const std::string* tfliteFamilyOp(std::int32_t code);

/// The builtin options of a family operator named `name` as raw attributes (TFLite's field
/// names). Options that are absent, or of another op's type, read as all defaults, as TFLite does;
/// the latter says so in `note`.
Attrs tfliteOptions(const ss::tflite::Operator& op, const std::string& name, std::string& note);

/// The family's operators, in the table's order.
std::vector<std::string> tfliteOpNames();

/// Translates one TFLite node (its op name, rawAttrs from the builtin options, and its inputs'
/// constants) into display attributes and a request or a reason; the reader's `translate`.
void translateTFLiteNode(ModelNode& node);

/// A TensorType as the schema names it ("INT32"), or "type N".
std::string tfliteTypeText(std::int8_t type);

} // namespace ss::model
