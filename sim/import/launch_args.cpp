#include "sim/import/launch_args.hpp"

#include <cctype>

#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"

namespace pdsim {
namespace {

bool is_env_assignment(const std::string& w) {
  auto eq = w.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  if (!(std::isalpha(static_cast<unsigned char>(w[0])) || w[0] == '_')) return false;
  for (size_t i = 0; i < eq; ++i) {
    const unsigned char c = static_cast<unsigned char>(w[i]);
    if (!(std::isalnum(c) || c == '_')) return false;
  }
  return true;
}

bool is_flag(const std::string& w) {
  return w.size() > 2 && w[0] == '-' && w[1] == '-';
}

const ArgSpec* find_spec(const std::vector<ArgSpec>& specs, const std::string& flag) {
  for (const auto& s : specs) {
    if (s.name == flag) return &s;
    for (const auto& a : s.aliases)
      if (a == flag) return &s;
  }
  return nullptr;
}

}  // namespace

std::vector<std::string> split_command_line(const std::string& text, const std::string& what) {
  // Flags and values end up in JSON (the scenario, its provenance), which holds only UTF-8.
  if (const size_t bad = invalid_utf8_offset(text); bad != std::string_view::npos)
    throw InputError(what, "",
                     "expected UTF-8 text; byte " + std::to_string(bad) + " is not UTF-8 (near \"" +
                         excerpt(text.substr(bad > 20 ? bad - 20 : 0, 40)) + "\")");
  std::vector<std::string> out;
  std::string cur;
  bool in_word = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\') {
      if (i + 1 >= text.size()) throw InputError(what, "", "a character after the final backslash");
      if (text[i + 1] != '\n') {
        cur += text[i + 1];
        in_word = true;
      }
      ++i;
    } else if (c == '\'') {
      auto end = text.find('\'', i + 1);
      if (end == std::string::npos) throw InputError(what, "", "a closing single quote");
      cur += text.substr(i + 1, end - i - 1);
      in_word = true;
      i = end;
    } else if (c == '"') {
      size_t j = i + 1;
      for (; j < text.size() && text[j] != '"'; ++j) {
        if (text[j] == '\\' && j + 1 < text.size() &&
            std::string_view("\"\\$`\n").find(text[j + 1]) != std::string_view::npos) {
          if (text[j + 1] != '\n') cur += text[j + 1];
          ++j;
        } else {
          cur += text[j];
        }
      }
      if (j >= text.size()) throw InputError(what, "", "a closing double quote");
      in_word = true;
      i = j;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (in_word) out.push_back(cur);
      cur.clear();
      in_word = false;
    } else {
      cur += c;
      in_word = true;
    }
  }
  if (in_word) out.push_back(cur);
  return out;
}

ParsedArgs parse_args(const std::vector<std::string>& words, const std::vector<ArgSpec>& specs,
                      const std::string& what) {
  ParsedArgs p;
  size_t i = 0;
  // Leading environment assignments and launcher words: everything before the first "--flag"
  // ("env", "python3", "-m", "sglang.launch_server", "VAR=value").
  for (; i < words.size() && !is_flag(words[i]); ++i) {
    if (is_env_assignment(words[i])) {
      const auto eq = words[i].find('=');
      p.env[words[i].substr(0, eq)] = words[i].substr(eq + 1);
    } else {
      p.program.push_back(words[i]);
    }
  }
  while (i < words.size()) {
    const std::string& w = words[i++];
    if (!is_flag(w)) {
      if (is_env_assignment(w)) {
        const auto eq = w.find('=');
        p.env[w.substr(0, eq)] = w.substr(eq + 1);
        continue;
      }
      throw InputError(what, w, "a --flag (launch_server takes no positional arguments)");
    }
    const auto eq = w.find('=');
    const std::string flag = w.substr(0, eq);
    const bool inline_value = eq != std::string::npos;
    const ArgSpec* spec = find_spec(specs, flag);
    auto next_is_value = [&] { return i < words.size() && !is_flag(words[i]); };
    if (!spec) {
      UnknownArg u{flag, ""};
      if (inline_value)
        u.value = w.substr(eq + 1);
      else if (next_is_value() && !is_env_assignment(words[i]))
        u.value = words[i++];
      p.unknown.push_back(u);
      continue;
    }
    std::vector<std::string> vals;
    switch (spec->kind) {
      case ArgKind::kSwitch:
        if (inline_value)
          throw InputError(what, flag,
                           "no value (it is a switch), got \"" + excerpt(w.substr(eq + 1)) + "\"");
        break;
      case ArgKind::kValue:
        if (inline_value) {
          vals.push_back(w.substr(eq + 1));
        } else {
          if (!next_is_value()) throw InputError(what, flag, "a value after " + flag);
          vals.push_back(words[i++]);
        }
        break;
      case ArgKind::kList:
        if (inline_value) vals.push_back(w.substr(eq + 1));
        while (next_is_value() && !is_env_assignment(words[i])) vals.push_back(words[i++]);
        if (vals.empty()) throw InputError(what, flag, "one or more values after " + flag);
        break;
    }
    p.values[spec->name] = vals;
    ++p.occurrences[spec->name];
  }
  return p;
}

}  // namespace pdsim
