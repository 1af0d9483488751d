#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Generate the C of the generic netlink family "dcm" from its spec.

Documentation/netlink/specs/dcm.yaml is the family's single source. From it
this script writes:

  include/uapi/linux/dcm.h     the netlink part, between its two markers:
                               the family's names, the constants, enums,
                               attribute sets and commands
  kernel/faces/dcm_nl_gen.h    the operations' handlers, the op table and
  kernel/faces/dcm_nl_gen.c    one policy per operation, listing only the
                               attributes its request takes
  userspace/lib/nl-gen.h       libdcm's parse tables: a libnl policy and the
  userspace/lib/nl-gen.c       attribute names of each attribute set

  scripts/dcm-nl-gen.py           write them
  scripts/dcm-nl-gen.py --check   exit 1 (and show the difference) if any
                                  differs from what would be written; make
                                  lint runs it

The spec follows the kernel's genetlink-legacy schema, plus "max-name" (the
name of an enum's last value when render-max's default clashes with an
entry). Kept small on purpose: it renders what this family uses, and stops
on what it does not know.
"""

import argparse
import difflib
import os
import sys
import textwrap

import yaml

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
SPEC = 'Documentation/netlink/specs/dcm.yaml'
UAPI = 'include/uapi/linux/dcm.h'
BEGIN = '/* Generated from %s by scripts/dcm-nl-gen.py: do not edit. */' % SPEC
END = '/* End of the part generated from %s. */' % SPEC
WIDTH = 100
NOTE = 'Generated from %s by scripts/dcm-nl-gen.py: do not edit.' % SPEC

SCALARS = {'u8': 1, 'u16': 2, 'u32': 4, 'u64': 8, 's8': 1, 's16': 2, 's32': 4, 's64': 8}


def die(msg):
    sys.exit('dcm-nl-gen: %s' % msg)


def c_upper(name):
    return name.upper().replace('-', '_')


def c_lower(name):
    return name.lower().replace('-', '_')


def col(text):
    return len(text.expandtabs(8))


def pad_to(text, column):
    """Tabs after @text up to @column (at least one)."""
    out = text + '\t'
    while col(out) < column:
        out += '\t'
    return out


def one_line(doc):
    return ' '.join((doc or '').split())


def block_comment(doc, indent=''):
    """A comment of @doc, on one line if it fits, else kernel style."""
    doc = one_line(doc)
    line = '%s/* %s */' % (indent, doc)
    if col(line) <= WIDTH:
        return [line]
    body = textwrap.wrap(doc, 80 - col(indent) - 3, break_on_hyphens=False)
    return [indent + '/*'] + [indent + ' * ' + b for b in body] + [indent + ' */']


def with_comment(code, doc, column, indent='\t'):
    """@code with @doc after it, or above it if the line would be too long."""
    doc = one_line(doc)
    if not doc:
        return [code]
    line = pad_to(code, column) + '/* %s */' % doc
    if col(line) <= WIDTH:
        return [line]
    return block_comment(doc, indent) + [code]


class Spec:
    def __init__(self, path):
        with open(path) as f:
            self.y = yaml.safe_load(f)
        y = self.y
        self.name = y['name']
        self.defs = {d['name']: d for d in y.get('definitions', [])}
        self.sets = {s['name']: s for s in y['attribute-sets']}
        self.ops = y['operations']['list']
        self.op_prefix = y['operations'].get('name-prefix', self.name + '-cmd-')
        self.groups = y.get('mcast-groups', {}).get('list', [])
        for s in self.sets.values():
            s['by-name'] = {}
            for i, a in enumerate(s['attributes']):
                a['value'] = i + 1
                s['by-name'][a['name']] = a

    # names
    def attr_c(self, aset, attr):
        return c_upper(self.sets[aset]['name-prefix'] + attr)

    def set_max(self, aset):
        return c_upper(self.sets[aset]['name-prefix'] + 'max')

    def op_c(self, op):
        return c_upper(self.op_prefix + op['name'])

    def enum_entries(self, d):
        out = []
        for e in d['entries']:
            out.append(e if isinstance(e, dict) else {'name': e})
        return out

    def enum_entry_c(self, d, e):
        return c_upper(d.get('name-prefix', self.name + '-' + d['name'] + '-') + e['name'])

    def enum_max_c(self, d):
        return c_upper(d.get('max-name', d.get('name-prefix', '') + 'max'))


# ----------------------------------------------------------------------
# uapi

def uapi_part(sp):
    y = sp.y
    out = []
    fam = c_upper(y['c-family-name'])
    ver = c_upper(y['c-version-name'])
    out += block_comment('Generic netlink family "%s".' % sp.name, '')
    out.append(pad_to('#define ' + fam, 32) + '"%s"' % sp.name)
    out.append(pad_to('#define ' + ver, 32) + '%d' % y['version'])
    for g in sp.groups:
        out.append(pad_to('#define ' + c_upper(g['c-define-name']), 32) + '"%s"' % g['name'])

    prev = None
    for d in y.get('definitions', []):
        if 'header' in d:
            continue
        if not (prev == 'const' and d['type'] == 'const' and not d.get('doc', '').count('\n')):
            out.append('')
        prev = d['type']
        if d['type'] == 'const':
            out += uapi_const(sp, d)
        elif d['type'] == 'enum':
            out += uapi_enum(sp, d)
        else:
            die('definition %s: type %s not supported' % (d['name'], d['type']))

    for s in y['attribute-sets']:
        out.append('')
        out += uapi_attr_set(sp, s)

    out.append('')
    out += uapi_cmds(sp)
    return out


def uapi_const(sp, d):
    name = c_upper(d.get('name-prefix', sp.name + '-') + d['name'])
    code = pad_to('#define ' + name, 32) + str(d['value'])
    doc = one_line(d.get('doc'))
    if doc and col(code + '\t/* %s */' % doc) <= WIDTH and len(doc) < 60:
        return with_comment(code, doc, 40, '')
    return (block_comment(doc, '') if doc else []) + [code]


def uapi_enum(sp, d):
    out = block_comment(d['doc'], '') if d.get('doc') else []
    name = c_lower(d.get('enum-name', sp.name + '-' + d['name']))
    out.append('enum %s {' % name)
    for e in sp.enum_entries(d):
        out += with_comment('\t%s,' % sp.enum_entry_c(d, e), e.get('doc'), 32)
    if d.get('render-max'):
        mx = sp.enum_max_c(d)
        out += ['', '\t__%s,' % mx, '\t%s = __%s - 1' % (mx, mx)]
    out.append('};')
    return out


def attr_comment(sp, a):
    t = a['type']
    if t == 'nest':
        t = 'nest of %s%s' % (a['nested-attributes'], ', repeated' if a.get('multi-attr') else '')
    elif 'enum' in a:
        d = sp.defs[a['enum']]
        if d['type'] == 'enum':
            t += ': enum %s' % c_lower(d.get('enum-name', sp.name + '-' + d['name']))
        else:
            t += ': %s' % a['enum']
    doc = one_line(a.get('doc'))
    return '%s: %s' % (t, doc) if doc else t


def uapi_attr_set(sp, s):
    out = block_comment('The "%s" attributes: %s' % (s['name'], one_line(s.get('doc'))), '')
    out.append('enum {')
    out.append('\t%s,' % c_upper(s['name-prefix'] + 'unspec'))
    for a in s['attributes']:
        out += with_comment('\t%s,' % sp.attr_c(s['name'], a['name']), attr_comment(sp, a), 40)
    mx = sp.set_max(s['name'])
    out += ['', '\t__%s,' % mx, '\t%s = __%s - 1' % (mx, mx), '};']
    return out


def op_comment(sp, op):
    if 'event' in op:
        return 'multicast "%s" only: the %s set' % (op['mcgrp'], op['attribute-set'])
    parts = []
    for mode in ('do', 'dump'):
        if mode not in op:
            continue
        req = op[mode].get('request', {}).get('attributes', [])
        rep = op[mode].get('reply', {}).get('attributes', [])
        text = '%s: %s' % (mode, ' '.join(c_upper(a) for a in req) or 'no attribute')
        if rep and mode == 'do':
            text += ', answers %s' % ' '.join(c_upper(a) for a in rep)
        parts.append(text)
    return '; '.join(parts)


def uapi_cmds(sp):
    out = block_comment(sp.y['operations'].get('doc', 'Commands.'), '')
    out.append('enum {')
    out.append('\t%s,' % c_upper(sp.op_prefix + 'unspec'))
    for op in sp.ops:
        out += with_comment('\t%s,' % sp.op_c(op), op_comment(sp, op), 40)
    mx = c_upper(sp.op_prefix + 'max')
    out += ['', '\t__%s,' % mx, '\t%s = __%s - 1' % (mx, mx), '};']
    return out


def render_uapi(sp, current):
    lines = current.split('\n')
    try:
        b = lines.index(BEGIN)
        e = lines.index(END)
    except ValueError:
        die('%s: the markers of the generated part are missing' % UAPI)
    return '\n'.join(lines[:b + 1] + uapi_part(sp) + [''] + lines[e:])


# ----------------------------------------------------------------------
# kernel

def kernel_policy_entry(sp, aset, a):
    t = a['type']
    checks = a.get('checks', {})
    if t in SCALARS:
        nla = 'NLA_' + t.upper()
        lo, hi = checks.get('min'), checks.get('max')
        if lo is None and hi is None and 'enum' in a and sp.defs[a['enum']]['type'] == 'enum':
            d = sp.defs[a['enum']]
            ents = sp.enum_entries(d)
            first = 1 if ents[0]['name'] == 'unspec' else 0
            if first:
                lo = sp.enum_entry_c(d, ents[first])
            hi = sp.enum_max_c(d) if d.get('render-max') else str(len(ents) - 1)
        if lo is not None and hi is not None:
            return 'NLA_POLICY_RANGE(%s, %s, %s)' % (nla, lo, hi)
        if hi is not None:
            return 'NLA_POLICY_MAX(%s, %s)' % (nla, hi)
        if lo is not None:
            return 'NLA_POLICY_MIN(%s, %s)' % (nla, lo)
        return '{ .type = %s, }' % nla
    if t == 'string':
        if 'max-len' in checks:
            return '{ .type = NLA_NUL_STRING, .len = %d, }' % checks['max-len']
        return '{ .type = NLA_NUL_STRING, }'
    if t == 'flag':
        return '{ .type = NLA_FLAG, }'
    die('%s.%s: type %s has no kernel policy here' % (aset, a['name'], t))


def op_request(op):
    """The attributes an operation's requests take (do and dump alike)."""
    attrs = []
    for mode in ('do', 'dump'):
        for a in op.get(mode, {}).get('request', {}).get('attributes', []):
            if a not in attrs:
                attrs.append(a)
    return attrs


def kernel_ops(sp):
    return [op for op in sp.ops if 'do' in op or 'dump' in op]


def handler(sp, op, mode):
    return 'dcm_nl_%s_%s' % (c_lower(op['name']), 'doit' if mode == 'do' else 'dumpit')


def render_kernel_h(sp):
    ops = kernel_ops(sp)
    out = ['/* SPDX-License-Identifier: GPL-2.0 */', '/* %s */' % NOTE,
           '#ifndef _DCM_NL_GEN_H', '#define _DCM_NL_GEN_H', '',
           '#include <net/genetlink.h>', '#include <linux/dcm.h>', '',
           'extern const struct genl_ops dcm_nl_ops[%d];' % len(ops),
           'extern const struct genl_multicast_group dcm_nl_mcgrps[%d];' % len(sp.groups), '',
           '/* The multicast groups, by their index in dcm_nl_mcgrps. */', 'enum {']
    for g in sp.groups:
        out.append('\tDCM_NLGRP_%s,' % c_upper(g['name']))
    out += ['};', '']
    for op in ops:
        if 'do' in op:
            out.append('int %s(struct sk_buff *skb, struct genl_info *info);' % handler(sp, op, 'do'))
        if 'dump' in op:
            out.append('int %s(struct sk_buff *skb, struct netlink_callback *cb);'
                       % handler(sp, op, 'dump'))
    out += ['', '#endif /* _DCM_NL_GEN_H */']
    return '\n'.join(out) + '\n'


def render_kernel_c(sp):
    out = ['// SPDX-License-Identifier: GPL-2.0', '/*', ' * ' + NOTE, ' *',
           ' * One policy per operation: an attribute its request does not list is',
           ' * refused, as unknown (EINVAL).', ' */', '',
           '#include "faces/dcm_nl_gen.h"']
    ops = kernel_ops(sp)
    for op in ops:
        aset = op['attribute-set']
        req = op_request(op)
        if not req:
            continue
        attrs = sorted((sp.sets[aset]['by-name'][a] for a in req), key=lambda a: a['value'])
        top = sp.attr_c(aset, attrs[-1]['name'])
        out += ['', '/* %s */' % sp.op_c(op),
                'static const struct nla_policy dcm_%s_nl_policy[%s + 1] = {'
                % (c_lower(op['name']), top)]
        for a in attrs:
            out.append('\t[%s] = %s,' % (sp.attr_c(aset, a['name']),
                                         kernel_policy_entry(sp, aset, a)))
        out.append('};')
    out += ['', '/* The operations, in the spec\'s order. */',
            'const struct genl_ops dcm_nl_ops[%d] = {' % len(ops)]
    for op in ops:
        aset = op['attribute-set']
        req = op_request(op)
        out += ['\t{', '\t\t.cmd = %s,' % sp.op_c(op)]
        if 'do' in op:
            out.append('\t\t.doit = %s,' % handler(sp, op, 'do'))
        if 'dump' in op:
            out.append('\t\t.dumpit = %s,' % handler(sp, op, 'dump'))
        if req:
            attrs = sorted((sp.sets[aset]['by-name'][a] for a in req), key=lambda a: a['value'])
            out.append('\t\t.policy = dcm_%s_nl_policy,' % c_lower(op['name']))
            out.append('\t\t.maxattr = %s,' % sp.attr_c(aset, attrs[-1]['name']))
        flags = op.get('flags', [])
        for f in flags:
            if f != 'admin-perm':
                die('operation %s: flag %s not supported' % (op['name'], f))
        if flags:
            out.append('\t\t.flags = GENL_ADMIN_PERM,')
        out.append('\t},')
    out += ['};', '', '/* The multicast groups: DCM_NLGRP_* index them. */',
            'const struct genl_multicast_group dcm_nl_mcgrps[%d] = {' % len(sp.groups)]
    for g in sp.groups:
        out.append('\t[DCM_NLGRP_%s] = { .name = %s, },'
                   % (c_upper(g['name']), c_upper(g['c-define-name'])))
    out.append('};')
    return '\n'.join(out) + '\n'


# ----------------------------------------------------------------------
# libdcm (libnl-3)

def user_policy_entry(sp, aset, a):
    t = a['type']
    checks = a.get('checks', {})
    if t in SCALARS:
        n = SCALARS[t]
        return '{ .type = NLA_%s, .minlen = %d, .maxlen = %d }' % (t.upper(), n, n)
    if t == 'string':
        if 'max-len' in checks:
            return '{ .type = NLA_STRING, .maxlen = %d }' % (checks['max-len'] + 1)
        return '{ .type = NLA_STRING }'
    if t == 'nest':
        return '{ .type = NLA_NESTED }'
    if t == 'flag':
        return '{ .type = NLA_FLAG }'
    if t == 'pad':
        return None
    die('%s.%s: type %s has no libnl policy here' % (aset, a['name'], t))


def render_user_h(sp):
    out = ['/* SPDX-License-Identifier: LGPL-2.1-or-later */', '/* %s */' % NOTE,
           '#ifndef LIBDCM_NL_GEN_H', '#define LIBDCM_NL_GEN_H', '',
           '#include <netlink/attr.h>', '#include <linux/dcm.h>', '',
           '/*',
           ' * Per attribute set: the policy that checks each attribute\'s type and',
           ' * size in what the kernel sends, and the attribute names ("INDEX") for',
           ' * messages.',
           ' */']
    for s in sp.y['attribute-sets']:
        n = c_lower(s['name'])
        mx = sp.set_max(s['name'])
        out.append('extern const struct nla_policy dcm_nl_%s_policy[%s + 1];' % (n, mx))
        out.append('extern const char *const dcm_nl_%s_attr_names[%s + 1];' % (n, mx))
    out += ['', '#endif /* LIBDCM_NL_GEN_H */']
    return '\n'.join(out) + '\n'


def render_user_c(sp):
    out = ['// SPDX-License-Identifier: LGPL-2.1-or-later', '/* %s */' % NOTE,
           '#include "nl-gen.h"']
    for s in sp.y['attribute-sets']:
        n = c_lower(s['name'])
        mx = sp.set_max(s['name'])
        out += ['', 'const struct nla_policy dcm_nl_%s_policy[%s + 1] = {' % (n, mx)]
        for a in s['attributes']:
            e = user_policy_entry(sp, s['name'], a)
            if e:
                out.append('\t[%s] = %s,' % (sp.attr_c(s['name'], a['name']), e))
        out += ['};', '', 'const char *const dcm_nl_%s_attr_names[%s + 1] = {' % (n, mx)]
        for a in s['attributes']:
            out.append('\t[%s] = "%s",' % (sp.attr_c(s['name'], a['name']), c_upper(a['name'])))
        out.append('};')
    return '\n'.join(out) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--check', action='store_true',
                    help='change nothing; fail if a generated file is not up to date')
    args = ap.parse_args()

    sp = Spec(os.path.join(TOP, SPEC))
    with open(os.path.join(TOP, UAPI)) as f:
        uapi = f.read()
    files = {
        UAPI: render_uapi(sp, uapi),
        'kernel/faces/dcm_nl_gen.h': render_kernel_h(sp),
        'kernel/faces/dcm_nl_gen.c': render_kernel_c(sp),
        'userspace/lib/nl-gen.h': render_user_h(sp),
        'userspace/lib/nl-gen.c': render_user_c(sp),
    }
    stale = 0
    for path, text in files.items():
        full = os.path.join(TOP, path)
        try:
            with open(full) as f:
                old = f.read()
        except FileNotFoundError:
            old = ''
        if old == text:
            continue
        if args.check:
            stale += 1
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), text.splitlines(True), 'a/' + path, 'b/' + path))
        else:
            with open(full, 'w') as f:
                f.write(text)
            print('dcm-nl-gen: wrote %s' % path)
    if stale:
        print('dcm-nl-gen: %d file(s) differ from %s: run scripts/dcm-nl-gen.py'
              % (stale, SPEC), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
