// What the flow-* rules read of a Loop or If: the values that decide how often / which way it
// runs, resolved in the provenance analysis.
#pragma once

#include <onnxlint/provenance.h>

namespace onnxlint::rules::prov {

struct LoopControl {
  ValueId trip = kNoValue;       // M (absent: no limit)
  ValueId cond = kNoValue;       // initial condition (absent: true)
  ValueId body_cond = kNoValue;  // condition the body computes for the next iteration
  std::string_view trip_name, cond_name, body_cond_name;
};

inline LoopControl loop_control(const Node& n, const Provenance& p) {
  LoopControl c;
  if (!n.inputs().empty() && !n.inputs()[0].empty()) {
    c.trip = p.find(*n.graph(), n.inputs()[0]);
    c.trip_name = n.inputs()[0];
  }
  if (n.inputs().size() > 1 && !n.inputs()[1].empty()) {
    c.cond = p.find(*n.graph(), n.inputs()[1]);
    c.cond_name = n.inputs()[1];
  }
  const Attribute* body = n.attribute("body");
  if (body != nullptr && body->g != nullptr && !body->g->outputs().empty()) {
    c.body_cond_name = body->g->outputs()[0].name;
    c.body_cond = p.find(*body->g, c.body_cond_name);
  }
  return c;
}

inline bool is_standard_op(const Node& n, std::string_view op) {
  return n.in_default_domain() && n.op_type() == op;
}

}  // namespace onnxlint::rules::prov
