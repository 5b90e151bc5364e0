// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/frameworks/op_equivalents.h"

#include "core/error.h"
#include "core/ops/common.h"
#include "core/slice_expr.h"
#include "core/strings.h"

#include <algorithm>
#include <cctype>

namespace ss {

namespace {

// Templates: {name} is an input (the first is x) or an attribute written as a Python literal;
// {name|lower} a string attribute in lower case; {name|torch_pad} paddings as PyTorch wants
// them (last dimension first, flattened, outer unpadded dimensions left out); {name|flat}
// paddings flattened in dimension order;
// {name=default} gives the value used when the call leaves the attribute out.
// Order of every list: NumPy, TensorFlow, PyTorch, JAX, ONNX, PaddlePaddle.
const char* const kNone = "";

std::vector<OpEquivalent> makeTable()
{
    return {
        {"getitem", "", "", {}, {}, true},
        {"strided_slice", "", "", {}, {}, true},
        {"tile",
         "",
         "",
         {"import numpy as np\n\nnp.tile(x, {multiples})",
          "import tensorflow as tf\n\ntf.tile(x, {multiples})",
          "import torch\n\ntorch.tile(x, {multiples})",
          "import jax.numpy as jnp\n\njnp.tile(x, {multiples})",
          "from onnx import helper\n\n# inputs: x, repeats = {multiples} (int64)\n"
          "helper.make_node(\"Tile\", [\"x\", \"repeats\"], [\"y\"])",
          "import paddle\n\npaddle.tile(x, repeat_times={multiples})"},
         {"", "", "", "", "", ""}},
        {"pad",
         "mode",
         "CONSTANT",
         {"import numpy as np\n\nnp.pad(x, {paddings}, constant_values={constant_values=0})",
          "import tensorflow as tf\n\ntf.pad(x, {paddings}, constant_values={constant_values=0})",
          "import torch\n\ntorch.nn.functional.pad(x, {paddings|torch_pad}, "
          "value={constant_values=0})",
          "import jax.numpy as jnp\n\njnp.pad(x, {paddings}, constant_values={constant_values=0})",
          "from onnx import helper\n\n# inputs: x, pads = {paddings|onnx_pads} (int64), "
          "constant_value = {constant_values=0}\nhelper.make_node(\"Pad\", [\"x\", \"pads\", "
          "\"constant_value\"], [\"y\"], mode=\"constant\")",
          "import paddle\n\npaddle.nn.functional.pad(x, {paddings|flat}, mode=\"constant\", "
          "value={constant_values=0})"},
         {"", "", "PyTorch lists the pads from the last dimension backwards.", "", "",
          "Paddle pads every dimension when the list has two entries per dimension."}},
        {"pad",
         "mode",
         "REFLECT",
         {"import numpy as np\n\nnp.pad(x, {paddings}, mode=\"reflect\")",
          "import tensorflow as tf\n\ntf.pad(x, {paddings}, mode=\"REFLECT\")",
          "import torch\n\ntorch.nn.functional.pad(x, {paddings|torch_pad}, mode=\"reflect\")",
          "import jax.numpy as jnp\n\njnp.pad(x, {paddings}, mode=\"reflect\")",
          "from onnx import helper\n\n# inputs: x, pads = {paddings|onnx_pads} (int64)\n"
          "helper.make_node(\"Pad\", [\"x\", \"pads\"], [\"y\"], mode=\"reflect\")",
          "import paddle\n\npaddle.nn.functional.pad(x, {paddings|flat}, mode=\"reflect\")"},
         {"", "",
          "PyTorch reflects only floating-point tensors, and only the last 1 to 3 "
          "dimensions of a 2-D to 5-D input.",
          "", "", "Paddle's reflect mode pads only the spatial dimensions of 3-D to 5-D input."}},
        {"pad",
         "mode",
         "SYMMETRIC",
         {"import numpy as np\n\nnp.pad(x, {paddings}, mode=\"symmetric\")",
          "import tensorflow as tf\n\ntf.pad(x, {paddings}, mode=\"SYMMETRIC\")", kNone,
          "import jax.numpy as jnp\n\njnp.pad(x, {paddings}, mode=\"symmetric\")", kNone, kNone},
         {"", "", "torch.nn.functional.pad has no symmetric mode (reflect leaves the edge out).",
          "", "ONNX Pad has constant, reflect and edge modes, not symmetric.",
          "paddle.nn.functional.pad has no symmetric mode."}},
        {"transpose",
         "",
         "",
         {"import numpy as np\n\nnp.transpose(x, {perm=None})",
          "import tensorflow as tf\n\ntf.transpose(x, {perm=None})",
          "import torch\n\nx.permute({perm})",
          "import jax.numpy as jnp\n\njnp.transpose(x, {perm=None})",
          "from onnx import helper\n\nhelper.make_node(\"Transpose\", [\"x\"], [\"y\"], "
          "perm={perm})",
          "import paddle\n\npaddle.transpose(x, perm={perm})"},
         {"", "", "", "", "", ""}},
        {"reverse",
         "",
         "",
         {"import numpy as np\n\nnp.flip(x, {axis})",
          "import tensorflow as tf\n\ntf.reverse(x, {axis})",
          "import torch\n\ntorch.flip(x, {axis})", "import jax.numpy as jnp\n\njnp.flip(x, {axis})",
          kNone, "import paddle\n\npaddle.flip(x, {axis})"},
         {"", "", "", "", "ONNX has no reverse op; a Slice with steps -1 on those axes does it.",
          ""}},
        {"roll",
         "",
         "",
         {"import numpy as np\n\nnp.roll(x, {shift}, {axis})",
          "import tensorflow as tf\n\ntf.roll(x, {shift}, {axis})",
          "import torch\n\ntorch.roll(x, {shift}, {axis})",
          "import jax.numpy as jnp\n\njnp.roll(x, {shift}, {axis})", kNone,
          "import paddle\n\npaddle.roll(x, {shift}, {axis})"},
         {"", "", "", "", "ONNX has no roll op; per rolled axis, two Slices and a Concat do it.",
          ""}},
        {"gather",
         "",
         "",
         {"import numpy as np\n\nnp.take(x, indices, axis={axis=0})",
          "import tensorflow as tf\n\ntf.gather(x, indices, axis={axis=0}, "
          "batch_dims={batch_dims=0})",
          "import torch\n\ntorch.index_select(x, {axis=0}, indices.flatten())"
          ".reshape(x.shape[:{axis=0}] + indices.shape + x.shape[{axis=0} + 1:])",
          "import jax.numpy as jnp\n\njnp.take(x, indices, axis={axis=0})",
          "from onnx import helper\n\nhelper.make_node(\"Gather\", [\"x\", \"indices\"], "
          "[\"y\"], axis={axis=0})",
          "import paddle\n\npaddle.gather(x, indices, axis={axis=0})"},
         {"np.take has no batch_dims.", "",
          "index_select takes a 1-D index, so the indices are flattened and the shape restored; "
          "an index out of range raises.",
          "jnp.take fills out-of-range indices (NaN or the type's minimum) instead of raising.", "",
          "paddle.gather takes a 1-D index."}},
        {"concat",
         "",
         "",
         {"import numpy as np\n\nnp.concatenate(values, axis={axis})",
          "import tensorflow as tf\n\ntf.concat(values, axis={axis})",
          "import torch\n\ntorch.cat(values, dim={axis})",
          "import jax.numpy as jnp\n\njnp.concatenate(values, axis={axis})",
          "from onnx import helper\n\nhelper.make_node(\"Concat\", [\"values_0\", \"values_1\"], "
          "[\"y\"], axis={axis})",
          "import paddle\n\npaddle.concat(values, axis={axis})"},
         {"values: the list of inputs", "", "", "", "", ""}},
        {"stack",
         "",
         "",
         {"import numpy as np\n\nnp.stack(values, axis={axis=0})",
          "import tensorflow as tf\n\ntf.stack(values, axis={axis=0})",
          "import torch\n\ntorch.stack(values, dim={axis=0})",
          "import jax.numpy as jnp\n\njnp.stack(values, axis={axis=0})", kNone,
          "import paddle\n\npaddle.stack(values, axis={axis=0})"},
         {"", "", "", "", "ONNX has no stack: Unsqueeze each input, then Concat.", ""}},
        {"one_hot",
         "",
         "",
         {kNone, "import tensorflow as tf\n\ntf.one_hot(x, {depth})",
          "import torch\n\ntorch.nn.functional.one_hot(x.long(), {depth})",
          "import jax\n\njax.nn.one_hot(x, {depth})",
          "from onnx import helper\n\n# inputs: x, depth = {depth}, values = [off, on]\n"
          "helper.make_node(\"OneHot\", [\"x\", \"depth\", \"values\"], [\"y\"])",
          "import paddle\n\npaddle.nn.functional.one_hot(x, {depth})"},
         {"NumPy has no one_hot; np.eye(depth)[x] is close but refuses out-of-range indices, "
          "which TensorFlow turns into all-off rows.",
          "", "PyTorch refuses negative or out-of-range indices.", "", "", ""}},
        {"boolean_mask",
         "",
         "",
         {"import numpy as np\n\nx[mask]", "import tensorflow as tf\n\ntf.boolean_mask(x, mask)",
          "import torch\n\nx[mask]", kNone, kNone,
          "import paddle\n\npaddle.masked_select(x, mask)"},
         {"", "", "", "JAX needs a static output shape: a boolean mask works only outside jit.",
          "ONNX: NonZero, then GatherND.", "paddle.masked_select flattens the result."}},
        {"space_to_depth",
         "",
         "",
         {kNone, "import tensorflow as tf\n\ntf.nn.space_to_depth(x, {block_size})", kNone, kNone,
          "from onnx import helper\n\nhelper.make_node(\"SpaceToDepth\", [\"x\"], [\"y\"], "
          "blocksize={block_size})",
          kNone},
         {"NumPy: reshape and transpose by hand.", "",
          "torch.nn.functional.pixel_unshuffle works on NCHW and orders the channels "
          "differently.",
          "JAX: reshape and transpose by hand.", "ONNX SpaceToDepth works on NCHW.",
          "Paddle: reshape and transpose by hand."}},
        {"depth_to_space",
         "",
         "",
         {kNone, "import tensorflow as tf\n\ntf.nn.depth_to_space(x, {block_size})", kNone, kNone,
          "from onnx import helper\n\nhelper.make_node(\"DepthToSpace\", [\"x\"], [\"y\"], "
          "blocksize={block_size}, mode=\"DCR\")",
          kNone},
         {"NumPy: reshape and transpose by hand.", "",
          "torch.nn.functional.pixel_shuffle works on NCHW and orders the channels "
          "differently.",
          "JAX: reshape and transpose by hand.", "ONNX DepthToSpace works on NCHW.",
          "Paddle: reshape and transpose by hand."}},
    };
}

std::string pyLiteral(const Attr& a)
{
    if (a.isNull()) return "None";
    if (a.isBool()) return a.toBool() ? "True" : "False";
    if (a.isInt()) return std::to_string(a.toInt());
    if (a.isFloat()) return pythonFloatRepr(a.toDouble());
    if (a.isString()) return pythonStringRepr(a.toString());
    std::string t = "[";
    if (a.isList()) {
        const auto& l = a.toList();
        for (std::size_t k = 0; k < l.size(); ++k)
            t += (k ? ", " : "") + pyLiteral(l[k]);
    }
    return t + "]";
}

std::vector<std::int64_t> paddingPairs(const Attr& a, const std::string& op)
{
    const IntTensor t = toIntTensor(a, "paddings");
    if (t.shape.size() != 2 || t.shape[1] != 2)
        badRequest("op '" + op + "': paddings must be a list of [before, after] pairs");
    return t.values;
}

std::string upper(std::string s)
{
    for (char& c : s)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

std::string render(const std::string& tmpl, const OpDef& op, const Attrs& attrs)
{
    std::string out;
    std::size_t pos = 0;
    while (pos < tmpl.size()) {
        const std::size_t open = tmpl.find('{', pos);
        if (open == std::string::npos) {
            out += tmpl.substr(pos);
            break;
        }
        const std::size_t close = tmpl.find('}', open);
        out += tmpl.substr(pos, open - pos);
        std::string field = tmpl.substr(open + 1, close - open - 1);
        pos = close + 1;
        std::string fallback;
        bool hasFallback = false;
        if (const auto eq = field.find('='); eq != std::string::npos) {
            fallback = field.substr(eq + 1);
            field = field.substr(0, eq);
            hasFallback = true;
        }
        std::string filter;
        if (const auto bar = field.find('|'); bar != std::string::npos) {
            filter = field.substr(bar + 1);
            field = field.substr(0, bar);
        }
        const AttrDef* def = nullptr;
        for (const AttrDef& d : op.attrs)
            if (d.name == field) def = &d;
        const Attr* value = nullptr;
        if (def) {
            if (auto it = attrs.find(field); it != attrs.end()) value = &it->second;
            for (const auto& alias : def->aliases)
                if (auto it = attrs.find(alias); !value && it != attrs.end()) value = &it->second;
        }
        if (!value) {
            if (!hasFallback)
                badRequest("op '" + op.name + "' needs attribute '" + field + "' for this code");
            out += fallback;
            continue;
        }
        if (filter == "lower" && value->isString()) {
            std::string s = value->toString();
            for (char& c : s)
                c = char(std::tolower(static_cast<unsigned char>(c)));
            out += pythonStringRepr(s);
        } else if (filter == "torch_pad" || filter == "flat" || filter == "onnx_pads") {
            const auto pairs = paddingPairs(*value, op.name);
            const std::size_t r = pairs.size() / 2;
            std::vector<std::int64_t> v;
            if (filter == "torch_pad") {
                // Outer dimensions that are not padded are left out: PyTorch's reflect mode
                // counts the padded dimensions from the list's length.
                std::size_t outer = 0;
                while (outer + 1 < r && pairs[2 * outer] == 0 && pairs[2 * outer + 1] == 0)
                    ++outer;
                for (std::size_t d = r; d-- > outer;) {
                    v.push_back(pairs[2 * d]);
                    v.push_back(pairs[2 * d + 1]);
                }
            } else if (filter == "flat") {
                v = pairs;
            } else { // ONNX: all befores, then all afters
                for (std::size_t d = 0; d < r; ++d)
                    v.push_back(pairs[2 * d]);
                for (std::size_t d = 0; d < r; ++d)
                    v.push_back(pairs[2 * d + 1]);
            }
            out += listText(v);
        } else {
            out += pyLiteral(*value);
        }
    }
    return out + "\n";
}

// The templates call the first input x; the code calls it what the GUI and the protocol call it
// ("params", "tensor"), so the identifier x (not a member .x, not part of a longer name) is
// renamed.
std::string renameFirstInput(const std::string& code, const std::string& name)
{
    if (name == "x") return code;
    const auto word = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    };
    std::string out;
    for (std::size_t k = 0; k < code.size(); ++k) {
        const bool alone = code[k] == 'x' &&
                           (k == 0 || (!word(code[k - 1]) && code[k - 1] != '.')) &&
                           (k + 1 == code.size() || !word(code[k + 1]));
        out += alone ? name : std::string(1, code[k]);
    }
    return out;
}

} // namespace

const std::vector<OpEquivalent>& opEquivalents()
{
    static const std::vector<OpEquivalent> table = makeTable();
    return table;
}

std::string opCode(Framework framework, const OpDef& op, const Attrs& attrs)
{
    const FrameworkModel& model = frameworkModel(framework);
    const auto f = std::size_t(framework);
    for (const OpEquivalent& row : opEquivalents()) {
        if (row.op != op.name) continue;
        if (!row.whenAttr.empty()) {
            const auto it = attrs.find(row.whenAttr);
            const std::string given = it == attrs.end()
                                          ? "CONSTANT"
                                          : (it->second.isString() ? it->second.toString() : "");
            if (upper(given) != row.whenValue) continue;
        }
        if (row.subscript) {
            // A subscript (getitem's expr) or raw arguments read as strided_slice reads them.
            return model.code(IndexSpec::fromAttrs(op.name, attrs), std::nullopt);
        }
        if (row.code[f].empty())
            invalidArgument("no direct equivalent in " + std::string(model.title()) + " for " +
                            op.name + ": " + row.notes[f]);
        std::string out = render(row.code[f], op, attrs);
        if (!row.notes[f].empty()) out = "# " + row.notes[f] + "\n" + out;
        return op.inputs.empty() ? out : renameFirstInput(out, op.inputs[0].name);
    }
    // The rest of TensorFlow's family is called tf.<op name> with the op's own attribute names.
    static const char* const kTensorflowNamed[] = {"slice",
                                                   "split",
                                                   "unstack",
                                                   "reverse_sequence",
                                                   "space_to_batch_nd",
                                                   "space_to_batch",
                                                   "batch_to_space_nd",
                                                   "batch_to_space",
                                                   "gather_nd",
                                                   "unique_with_counts",
                                                   "dynamic_partition",
                                                   "dynamic_stitch",
                                                   "sequence_mask"};
    const bool named =
        std::find_if(std::begin(kTensorflowNamed), std::end(kTensorflowNamed),
                     [&](const char* n) { return op.name == n; }) != std::end(kTensorflowNamed);
    if (framework == Framework::TensorFlow && named) {
        std::string call = "import tensorflow as tf\n\ntf." + op.name + "(";
        std::string args;
        for (std::size_t k = 0; k < op.inputs.size(); ++k)
            args += (k ? ", " : "") + op.inputs[k].name;
        for (const auto& [name, value] : attrs)
            args += (args.empty() ? "" : ", ") + name + "=" + pyLiteral(value);
        return call + args + ")\n";
    }
    invalidArgument("no direct equivalent in " + std::string(model.title()) + " for " + op.name);
}

} // namespace ss
