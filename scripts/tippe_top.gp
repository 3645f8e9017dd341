# tippe_top.gp - the tippe top's figure (docs/img/tippe_top.png), from a run
# written by scripts/tippe_top_plots.sh: the angle theta(t) between its
# axis and the vertical, its two gaps, the slip of its ball's contact, and
# the paths of both contact points on the floor (the ball's where it
# touches; the stem's point nearest the floor, which lands at the end).
# gnuplot -e "data='DIR/trajectory.csv'; out='FILE.png'" scripts/tippe_top.gp
# Columns: t, T.theta, ball.gap, stem.gap, ball.x, ball.y, stem.x, stem.y,
# ball_friction.slip.
set datafile separator ','
set terminal pngcairo size 1200,800 font ',11'
set output out
set multiplot layout 2,2 title "The tippe top (Leine 2003): on its ball, on its stem from 1.371 s, inverted from 1.42 s, falling back as its spin decays"
set grid
set key noenhanced
set key top left
set xlabel 't [s]'
set ylabel 'theta [rad]'
set ytics ('0' 0, 'pi/4' pi/4, 'pi/2' pi/2, '3pi/4' 3*pi/4, 'pi' pi)
set yrange [0:pi]
plot data every ::1 using 1:2 with lines lw 2 title 'theta, axis from the vertical'
set ytics autofreq
set autoscale y
set ylabel 'gap [mm]'
plot data every ::1 using 1:($3*1000) with lines lw 2 title 'ball.gap', \
     data every ::1 using 1:($4*1000) with lines lw 2 title 'stem.gap'
set ylabel 'slip [m/s]'
plot data every ::1 using 1:9 with lines lw 2 title 'ball_friction.slip = |gamma_T|'
set xlabel 'x [mm]'
set ylabel 'y [mm]'
set size ratio -1
set key top right box opaque
plot data every ::1 using ($5*1000):($6*1000) with lines lw 2 title "ball's contact point", \
     data every ::1 using ($7*1000):($8*1000) with lines lw 1 title "stem's point nearest the floor"
unset multiplot
