<div class="card"><img src="<%= image %>"><h2><%= title %></h2></div>
