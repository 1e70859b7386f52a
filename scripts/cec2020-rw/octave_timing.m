% The organisers' cec20_func.m timed under GNU Octave, per problem: the mean time of one
% evaluation with one point per call (as an optimizer asks) and with n points in one
% call (the code's vectorised interface). Points uniform in each box, seed 1.
%
% Run it in a folder holding the organisers' cec20_func.m and Cal_par.m (SOFTWARE.zip of
% the repository P-N-Suganthan/2020-RW-Constrained-Optimisation; not redistributed here:
% it has no licence) and their input data under the Windows-style names the code loads
% ('input data\FunctionPS1_G.txt' as one file name on Linux):
%
%   for f in /path/to/input\ data/*.txt; do cp "$f" "input data\\$(basename "$f")"; done
%   octave-cli -q octave_timing.m
%
% Prints "k one-point-seconds batch-seconds" per problem; the crate's README compares
% the class means with `cargo bench -p cec2020-rw --bench evaluation`.
global initial_flag
rand('seed', 1);
for k = 1:57
  par = Cal_par(k);
  n = 100;
  if k == 24, n = 20; end   % two fminbnd searches per point: slow under Octave
  X = repmat(par.xmin, n, 1) + repmat(par.xmax - par.xmin, n, 1) .* rand(n, par.n);
  initial_flag = 0;
  [f, g, h] = cec20_func(X(1,:), k);   % loads the problem's data once
  tic;
  for i = 1:n
    [f, g, h] = cec20_func(X(i,:), k);
  end
  t1 = toc / n;
  tic;
  [f, g, h] = cec20_func(X, k);
  t2 = toc / n;
  printf('%d %.3e %.3e\n', k, t1, t2);
  fflush(stdout);
end
