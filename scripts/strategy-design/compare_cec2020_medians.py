"""Per-problem medians of a CEC2020 study against eps-MAg-ES-R's committed black-box runs.

    python3 scripts/strategy-design/compare_cec2020_medians.py STUDY_DIR [BASELINE_DIR]

Reads STUDY_DIR/D*/runs*.jsonl[.gz] and BASELINE_DIR (default
results/strategy-design/test-sets/cec2020); prints a Markdown table of the problems with
25 runs in both: feasible runs, the median run (feasible runs first, then f; as the
competition ranks runs), and which median is better. A crude view beside the
competition's score (examples/cec2020_rw.rs --score).
"""
import json, gzip, glob, sys
def load(dirpat):
    out={}
    for f in glob.glob(dirpat):
        op=gzip.open if f.endswith('.gz') else open
        for l in op(f,'rt'):
            r=json.loads(l)
            out.setdefault(r['problem'],[]).append(r)
    return out
new=load(sys.argv[1]+'/D*/runs*.jsonl*')
base=sys.argv[2] if len(sys.argv)>2 else 'results/strategy-design/test-sets/cec2020'
old=load(base+'/D*/runs*.jsonl*')
def key(r): return (r['best']['violation'], r['best']['objective'])
def med(rs):
    s=sorted(rs,key=key); m=s[len(s)//2]; v,f=key(m)
    return ('%.6g'%f) if v==0 else ('ν̄ %.1e'%v)
print('| problem | D | feasible runs: black box / exact | median: black box | median: exact | better median |')
print('|---|---:|---:|---:|---:|---|')
tally={'exact':0,'=':0,'black box':0}
for k in sorted(new):
    a=new[k]; b=old.get(k,[])
    if len(a)<25 or len(b)<25: continue
    ka=key(sorted(a,key=key)[12]); kb=key(sorted(b,key=key)[12])
    if ka==kb or (ka[0]==kb[0]==0 and abs(ka[1]-kb[1])<=1e-9*max(1,abs(kb[1]))): w='='
    elif ka<kb: w='exact'
    else: w='black box'
    tally[w]+=1
    print(f"| RC{k:02} | {a[0]['dim']} | {sum(r['best']['violation']==0 for r in b)} / {sum(r['best']['violation']==0 for r in a)} | {med(b)} | {med(a)} | {w} |")
print()
print('exact better / equal / worse by the median:', tally['exact'],'/',tally['='],'/',tally['black box'])
