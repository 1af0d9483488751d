#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""test-man.py BINDIR: the manual pages against the programs' --help.

Documentation/man/ holds a page for every program (dcmctl.8, dcmd.8,
dcm-lola.8, dcm-web.8, dcm-physics.8, dcm-sim.8, dcm-flight.8) and for libdcm (libdcm.3). The --help texts are the reference:
  - every option a program's --help lists (its "Options" lines) is in the
    program's page, and every option the page names is one --help knows;
  - dcmctl: every command of `dcmctl --help` has its entry in COMMANDS and
    the page has no command dcmctl does not; each command's own options
    (`dcmctl help COMMAND`) and the words of its usage lines (alias
    create|set|list|show|delete, preferences save|load|add, ...) are in
    that command's entry;
  - libdcm.3 names every function libdcm.h declares, and none it does not;
    libdcm-desc.3 every function of libdcm-desc.h, and none but libdcm's;
  - dcm-device.5 and dcm-preferences.5 name every element and attribute
    of their schema (userspace/data/device.rng, preferences.rng);
  - every page renders without a groff warning, and points nowhere into
    the source tree (no "Documentation/"): the HTML pages it names under
    /usr/share/doc/dcm-doc/html/ are pages Documentation/ builds;
  - no page's SYNOPSIS has a word hyphenated across lines, at any width
    from 40 to 100 columns (an option name broken in two cannot be
    copied);
  - every page a unit's Documentation= names (userspace/systemd/) and
    every page another page names (.BR page (N)) is one of
    Documentation/man/, or a page of the system (man -w finds it).
Reports like a cmocka binary, which scripts/check.sh counts (one line per
test, what failed in it indented below, then "[  PASSED  ] N test(s)."
and "[  FAILED  ] N test(s), listed below:"); exit 1 on a failure.
"""

import os
import re
import subprocess
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
MAN = os.path.join(TOP, 'Documentation', 'man')
HTML = '/usr/share/doc/dcm-doc/html/'

# An option: -x or --long-name, not inside a word (read-only, DCM_-...).
OPT = re.compile(r'(?<![\w\-/.])(--?[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)')

passed = []
failed = []
current = None
problems = []


def begin(name):
    """Start the test NAME; the checks until the next begin() are its."""
    end()
    global current
    current = name
    del problems[:]


def end():
    global current
    if current is None:
        return
    if problems:
        failed.append(current)
        print('[  FAILED  ] man: ' + current)
        for p in problems:
            print('    ' + p)
    else:
        passed.append(current)
        print('[       OK ] man: ' + current)
    current = None


def check(ok, what):
    if not ok:
        problems.append(what)
    return ok


def run(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, env=dict(os.environ, LC_ALL='C'))
    return p.returncode, p.stdout, p.stderr


def roff_text(src):
    """The page's text with roff escapes for - undone, comments dropped."""
    lines = [l for l in src.split('\n') if not l.startswith('.\\"')]
    t = '\n'.join(lines)
    t = t.replace('\\-', '-').replace('\\fB', ' ').replace('\\fI', ' ')
    t = t.replace('\\fR', ' ').replace('\\fP', ' ').replace('\\(em', ' ')
    return t


def sections(src):
    """{SECTION NAME: text} of a roff page."""
    out = {}
    cur = None
    for line in src.split('\n'):
        m = re.match(r'\.SH\s+"?([^"]*)"?\s*$', line)
        if m:
            cur = m.group(1).strip()
            out[cur] = ''
        elif cur:
            out[cur] += line + '\n'
    return out


def own_text(src):
    """The page but FILES and SEE ALSO, which speak of other programs."""
    return roff_text('\n'.join(t for n, t in sections(src).items()
                               if n not in ('FILES', 'SEE ALSO')))


def help_options(text):
    """Options declared by the option lines of a --help text."""
    opts = set()
    for line in text.split('\n'):
        m = re.match(r'^\s{2,}((?:-[A-Za-z0-9], )?--?[A-Za-z][\w-]*)', line)
        if m:
            opts.update(OPT.findall(m.group(1)))
            opts.update(re.findall(r'(?<![\w-])-[A-Za-z0-9](?=,)', m.group(1)))
    return opts


def all_options(text):
    found = set(OPT.findall(text))
    found.update(re.findall(r'(?<![\w\-/.])-[0-9](?=[\s,|\])])', text))
    return found


def entries(cmds_text):
    """A roff COMMANDS section split into its .TP entries: {first word: text}.
    An entry holds what is nested in it (.RS ... .RE, its options' .TP)."""
    out = {}
    depth = 0
    chunks = []
    for line in cmds_text.split('\n'):
        if line.startswith('.RS'):
            depth += 1
        elif line.startswith('.RE'):
            depth -= 1
        if re.match(r'^\.TP\s*$', line) and depth == 0:
            chunks.append([])
        elif chunks:
            chunks[-1].append(line)
    for chunk in chunks:
        m = re.match(r'\.B\s+(\S+)', chunk[0] if chunk else '')
        if not m:
            continue
        name = m.group(1).replace('\\fR', '').replace('\\fB', '')
        out[name] = out.get(name, '') + '\n'.join(chunk) + '\n'
    return out


def page(name):
    begin('%s: exists, renders without a groff warning, no source-tree path' % name)
    path = os.path.join(MAN, name)
    if not check(os.path.isfile(path), '%s: no such page' % name):
        end()
        return None
    src = open(path, encoding='utf-8').read()
    rc, _, err = run(['groff', '-t', '-man', '-ww', '-z', '-Tutf8', path])
    check(rc == 0 and not err.strip(), '%s: groff: %s' % (name, err.strip()))
    check('Documentation/' not in src,
          '%s: points into the source tree (Documentation/)' % name)
    for rel in re.findall(re.escape(HTML) + r'([\w/.-]+)\.html', src.replace('\\-', '-')):
        check(rel in ('index', 'genindex', 'search') or
              os.path.isfile(os.path.join(TOP, 'Documentation', rel + '.rst')),
              '%s: %s%s.html is no page of Documentation/' % (name, HTML, rel))
    end()
    return src


def compare(prog, declared, known, man_opts, where):
    for o in sorted(declared - man_opts):
        check(False, '%s: option %s of --help is not in %s' % (prog, o, where))
    for o in sorted(man_opts - known):
        check(False, '%s: %s names %s, which --help does not know' % (prog, where, o))


def simple_program(bindir, prog, helpflag):
    src = page(prog + '.8')
    begin('%s.8: the options of %s %s, no other' % (prog, prog, helpflag))
    rc, out, err = run([os.path.join(bindir, prog), helpflag])
    if not check(rc == 0 and out, '%s %s: exit %d' % (prog, helpflag, rc)):
        return
    if src is None:
        return
    sec = sections(src)
    opts_text = roff_text(sec.get('OPTIONS', ''))
    check(opts_text.strip() != '', '%s.8: no OPTIONS section' % prog)
    compare(prog, help_options(out), all_options(out),
            all_options(opts_text), 'OPTIONS of %s.8' % prog)
    # Elsewhere in the page too (FILES and SEE ALSO are other programs'):
    # no option --help does not know.
    for o in sorted(all_options(own_text(src)) - all_options(out)):
        check(False, '%s.8 names %s, which %s %s does not know' % (prog, o, prog, helpflag))


def dcmctl(bindir):
    prog = os.path.join(bindir, 'dcmctl')
    src = page('dcmctl.8')
    begin('dcmctl.8: the commands and global options of dcmctl --help, no other')
    rc, main_help, _ = run([prog, '--help'])
    if not check(rc == 0, 'dcmctl --help: exit %d' % rc) or src is None:
        return
    cmds = []
    part = main_help.split('\nCommands:\n', 1)
    check(len(part) == 2, 'dcmctl --help: no "Commands:" section')
    for line in part[-1].split('\n'):
        m = re.match(r'^  ([a-z]+(?:-[a-z]+)*)\b', line)
        if m:
            cmds.append(m.group(1))
    check(len(cmds) >= 10, 'dcmctl --help: only %d commands found' % len(cmds))
    sec = sections(src)
    ent = entries(sec.get('COMMANDS', ''))
    check(ent, 'dcmctl.8: no COMMANDS entries')
    known = all_options(main_help)
    compare('dcmctl', help_options(main_help.split('\nCommands:\n')[0]), known,
            all_options(roff_text(sec.get('OPTIONS', ''))), 'OPTIONS of dcmctl.8')
    for c in sorted(set(ent) - set(cmds)):
        check(False, 'dcmctl.8: an entry for %s, which dcmctl --help does not list' % c)
    helps = {}
    for c in cmds:
        rc, h, _ = run([prog, 'help', c])
        helps[c] = (rc, h)
        known |= all_options(h)
    for o in sorted(all_options(own_text(src)) - known):
        check(False, 'dcmctl.8 names %s, which no dcmctl help knows' % o)
    for c in cmds:
        begin('dcmctl.8: %s\'s entry has what dcmctl help %s lists' % (c, c))
        rc, h = helps[c]
        if not check(rc == 0, 'dcmctl help %s: exit %d' % (c, rc)):
            continue
        if not check(c in ent, 'dcmctl.8: no entry for the command %s' % c):
            continue
        text = roff_text(ent[c])
        own = h.split('\nGlobal options', 1)[0]
        own_opts = help_options(own.split('\nOptions:\n', 1)[1]) if '\nOptions:\n' in own else set()
        for o in sorted(own_opts - all_options(text)):
            check(False, 'dcmctl.8: %s\'s entry lacks its option %s' % (c, o))
        usage = [l for l in own.split('\n\n', 1)[0].split('\n')]
        words = set()
        for l in usage:
            l = re.sub(r'^(Usage:)?\s*dcmctl\s+' + c + r'\b', '', l)
            words.update(w for w in re.findall(r'(?<![\w\-@.])([a-z][a-z-]+)(?![\w@])', l))
        for w in sorted(words):
            check(re.search(r'(?<![\w-])' + re.escape(w) + r'(?![\w-])', text) is not None,
                  'dcmctl.8: %s\'s entry lacks "%s" (dcmctl help %s)' % (c, w, c))
    end()


def header_funcs(*path):
    """The dcm_* functions a header declares (its comments left out)."""
    hdr = open(os.path.join(TOP, *path), encoding='utf-8').read()
    hdr = re.sub(r'/\*.*?\*/', ' ', hdr, flags=re.S)
    return set(re.findall(r'\b(dcm_\w+)\s*\(', hdr))


def library(name, header, at_least, others=()):
    """NAME.3 names every function of HEADER and none that it does not
    declare, but for those of the headers OTHERS (another library's, which
    the page may name)."""
    src = page(name + '.3')
    hname = header[-1]
    begin('%s.3: every function of %s, no other' % (name, hname))
    funcs = header_funcs(*header)
    known = set(funcs)
    for o in others:
        known |= header_funcs(*o)
    if src is None:
        end()
        return
    text = roff_text(src)
    named = set(re.findall(r'\b(dcm_\w+)\s*\(', text))
    named |= set(re.findall(r'\.BR?\s+(dcm_\w+)', src))
    check(len(funcs) >= at_least, '%s: only %d functions found' % (hname, len(funcs)))
    for f in sorted(funcs - named):
        check(False, '%s.3 does not name %s() of %s' % (name, f, hname))
    for f in sorted(named - known):
        check(False, '%s.3 names %s(), which %s does not declare' % (name, f, hname))


def schema_page(name, schema):
    """NAME.5 names every element and attribute SCHEMA defines."""
    src = page(name + '.5')
    begin('%s.5: every element and attribute of %s' % (name, schema))
    if src is None:
        check(False, '%s.5: no such page' % name)
        return
    text = roff_text(src)
    rng = open(os.path.join(TOP, 'userspace', 'data', schema), encoding='utf-8').read()
    names = set(re.findall(r'<(?:element|attribute) name="([^"]+)"', rng))
    check(len(names) >= 5, '%s: fewer than 5 names' % schema)
    for n in sorted(names):
        check(re.search(r'\b%s\b' % re.escape(n), text) is not None,
              '%s.5 does not name %s of %s' % (name, n, schema))


def man_pages():
    return sorted(f for f in os.listdir(MAN) if re.fullmatch(r'[\w.-]+\.[1-8]', f))


def synopsis_unbroken():
    """No word of a SYNOPSIS is hyphenated across lines, at any width."""
    begin('every page: no word of SYNOPSIS hyphenated, 40 to 100 columns')
    for f in man_pages():
        for width in range(40, 101, 10):
            # groff's warnings of a line it cannot break are not the
            # point here (page() checks the page at the usual width).
            rc, out, _ = run(['groff', '-t', '-man', '-Tutf8', '-P-cbou',
                              '-rLL=%dn' % width, os.path.join(MAN, f)])
            m = re.search(r'^SYNOPSIS\n(.*?)^\S', out, re.S | re.M)
            if not check(rc == 0 and m is not None, '%s: no SYNOPSIS at %d columns' % (f, width)):
                continue
            for line in m.group(1).split('\n'):
                # groff's hyphenation ends the line with U+2010.
                check(not line.endswith('\u2010'),
                      '%s at %d columns: a word broken in SYNOPSIS: %r' % (f, width, line.strip()))


def references():
    """The pages the units and the manual pages name exist."""
    begin('units\' Documentation= and the pages\' references name pages that exist')
    ours = set(man_pages())
    refs = []
    unitdir = os.path.join(TOP, 'userspace', 'systemd')
    for u in sorted(os.listdir(unitdir)):
        text = open(os.path.join(unitdir, u), encoding='utf-8').read()
        docs = re.findall(r'^Documentation=(.*)$', text, re.M)
        if u.endswith(('.service', '.service.in', '.socket')):
            check(docs != [], '%s: no Documentation=' % u)
        for d in ' '.join(docs).split():
            m = re.fullmatch(r'man:([\w.-]+)\((\d)\)', d)
            if check(m is not None, '%s: Documentation=%s is not a man: page' % (u, d)):
                refs.append((u, m.group(1), m.group(2)))
    for f in man_pages():
        src = open(os.path.join(MAN, f), encoding='utf-8').read().replace('\\-', '-')
        for n, sec in re.findall(r'^\.BR ([\w.-]+) \((\d)\)', src, re.M):
            refs.append((f, n, sec))
    for where, n, sec in refs:
        if '%s.%s' % (n, sec) in ours:
            continue
        rc, _, _ = run(['man', '-w', sec, n])
        check(rc == 0, '%s names %s(%s), which is no page' % (where, n, sec))


def libdcm():
    library('libdcm', ('userspace', 'lib', 'libdcm.h'), 50)
    library('libdcm-desc', ('userspace', 'desc', 'libdcm-desc.h'), 5,
            [('userspace', 'lib', 'libdcm.h')])


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: test-man.py BINDIR')
    bindir = sys.argv[1]
    dcmctl(bindir)
    simple_program(bindir, 'dcmd', '--help')
    simple_program(bindir, 'dcm-lola', '--help')
    simple_program(bindir, 'dcm-web', '--help')
    simple_program(bindir, 'dcm-physics', '--help')
    simple_program(bindir, 'dcm-sim', '--help')
    simple_program(bindir, 'dcm-flight', '--help')
    libdcm()
    schema_page('dcm-device', 'device.rng')
    schema_page('dcm-preferences', 'preferences.rng')
    synopsis_unbroken()
    references()
    end()
    print('[  PASSED  ] %d test(s).' % len(passed))
    if failed:
        print('[  FAILED  ] %d test(s), listed below:' % len(failed))
        for f in failed:
            print('[  FAILED  ] man: ' + f)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
